// bodies.csv: header, one row per body per time, numbers that read back exactly, and rows on disk as soon as
// write() returns (a run that dies later keeps them).
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "solver/output/body_results_writer.h"
#include "support/text_files.h"

namespace lodestone {
namespace {

namespace fs = std::filesystem;
using testing::scratchFile;

TEST(BodyResultsWriterTest, WritesHeaderAndOneRowPerBodyFlushedAtOnce) {
  const fs::path path = scratchFile("bodies.csv");
  BodyResultsWriter writer(path);
  BodySample first;
  first.id = 2;
  first.position = {0.1, 1.0 / 3.0, -2e-300};
  first.eulerParameters = Vector4(1, 2, 3, 4).normalized();
  first.velocity = {1e20, -0.0, 3.0000000000000004};
  first.angularVelocity = {std::nextafter(1.0, 2.0), 0, 5};
  first.acceleration = {-9.81, 0.25, 7};
  first.angularAcceleration = {1e-17, -3, 0.5};
  BodySample second = first;
  second.id = 3;
  const std::vector<BodySample> bodies = {first, second};
  writer.write(0.1, bodies);

  // Read while the writer is still open: the rows must already be on disk.
  const std::vector<std::string> written = testing::readLines(path);
  ASSERT_EQ(written.size(), 3u);
  EXPECT_EQ(written[0], "time,id,x,y,z,e0,e1,e2,e3,vx,vy,vz,wx,wy,wz,ax,ay,az,wdx,wdy,wdz");
  const std::vector<double> values = testing::csvFields(written[1]);
  ASSERT_EQ(values.size(), 21u);
  EXPECT_EQ(values[0], 0.1);
  EXPECT_EQ(values[1], 2);
  // Every number reads back as exactly the double written.
  EXPECT_EQ(values[3], 1.0 / 3.0);
  EXPECT_EQ(values[4], -2e-300);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(values[5 + static_cast<size_t>(k)], first.eulerParameters[k]);
  EXPECT_EQ(values[9], 1e20);
  EXPECT_EQ(values[11], 3.0000000000000004);
  EXPECT_EQ(values[12], std::nextafter(1.0, 2.0));
  EXPECT_EQ(values[15], -9.81);
  EXPECT_EQ(values[17], 7);
  EXPECT_EQ(values[18], 1e-17);
  EXPECT_EQ(values[19], -3);
  EXPECT_EQ(testing::csvFields(written[2])[1], 3);
  EXPECT_EQ(written[1].substr(0, 6), "0.1,2,");  // shortest form, not 0.10000000000000001
}

TEST(BodyResultsWriterTest, ReportsAFolderThatDoesNotExist) {
  EXPECT_THROW(BodyResultsWriter(fs::path("/nonexistent-folder-for-lodestone/bodies.csv")), std::runtime_error);
}

}  // namespace
}  // namespace lodestone
