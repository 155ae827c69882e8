# The results files read back as a user reads them, with Debian's h5py and VTK (python3-h5py, python3-vtk9):
# results.h5 against the CSV tables, the animation against bodies.csv. Included from tests/CMakeLists.txt.
foreach(name test_results_h5 test_animation)
  add_test(NAME python.${name} COMMAND /usr/bin/python3 -B -m unittest -v ${name}
           WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR})
  set_tests_properties(python.${name} PROPERTIES LABELS python
    ENVIRONMENT "LODESTONE_EXECUTABLE=$<TARGET_FILE:lodestone>;LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/../lsan_python.supp")
endforeach()
