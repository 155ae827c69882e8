// The element reference printed for users comes from the same schemas the reader validates with.
#include <gtest/gtest.h>

#include "elements/element_catalog.h"

namespace lodestone {
namespace {

TEST(ElementCatalog, DescribesAttributesFromTheSchema) {
  const ElementKind* body = findElementKind("body_rigid");
  ASSERT_NE(body, nullptr);
  const std::string text = describeElement(*body);
  EXPECT_NE(text.find("Body_Rigid (in <Model>; in <Command> it changes an element)"), std::string::npos) << text;
  EXPECT_NE(text.find("  id: integer, >= 1, required"), std::string::npos) << text;
  EXPECT_NE(text.find("  mass: real, >= 0, a command can change it"), std::string::npos) << text;
  EXPECT_NE(text.find("  cg_id: id of a Reference_Marker"), std::string::npos) << text;
  EXPECT_NE(text.find("  isground: TRUE/FALSE, default FALSE"), std::string::npos) << text;
}

TEST(ElementCatalog, DescribesVariantsAndRefusals) {
  const std::string graphic = describeElement(*findElementKind("Post_Graphic"));
  EXPECT_NE(graphic.find("  with type=\"Sphere\":\n    center_marker_id: id of a Reference_Marker, required\n"
                         "    radius: real, > 0, required\n"),
            std::string::npos)
      << graphic;
  const std::string mate = describeElement(*findElementKind("Constraint_Mate"));
  EXPECT_EQ(mate, "Constraint_Mate: not supported: this constraint is not available yet; Constraint_Joint, "
                  "Constraint_Jprim, Constraint_Coupler and Constraint_Gear are\n");
  EXPECT_EQ(findElementKind("Gizmo"), nullptr);
}

// `lodestone elements Post_Request` lists each type's attributes from the schema the reader uses.
TEST(ElementCatalog, DescribesEachRequestTypesAttributes) {
  const ElementKind* request = findElementKind("post_request");
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->support, ElementSupport::Read);
  const std::string text = describeElement(*request);
  EXPECT_NE(text.find("  with type=\"MARKER_FORCE\":\n    i_marker_id: id of a Reference_Marker, required\n"
                      "    j_marker_id: id of a Reference_Marker (0: ground frame), default 0\n"
                      "    ref_marker_id: id of a Reference_Marker (0: ground frame), default 0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  with type=\"EXPRESSION\":\n    expr1: text\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    expr8: text\n"), std::string::npos) << text;
}

TEST(ElementCatalog, EveryReadElementCanBeReadSomewhere) {
  for (const ElementKind* kind : allElementKinds()) {
    if (kind->support == ElementSupport::Read) {
      EXPECT_TRUE(kind->readInModel || kind->readInCommand) << kind->element;
      EXPECT_FALSE(kind->attributes.empty() && kind->element != "Stop") << kind->element;
    } else {
      EXPECT_FALSE(kind->note.empty()) << kind->element;
    }
  }
}

}  // namespace
}  // namespace lodestone
