// Post_Request in decks: each type reads and builds with its own attributes, "NULL" components are left out,
// expression errors point at the column inside exprN, REQSUB and ELEMENTAL_FORCE requests are named in a warning
// and not written, and a MARKER_FORCE between markers nothing joins is warned about.
#include "elements/post_request.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); line 6: marker 21 on ground; line 7: the request.
constexpr int kRequestLine = 7;

struct RequestBuilt {
  Diagnostics diagnostics;
  size_t requests = 0;  // in the built model
};

RequestBuilt readRequest(const std::string& request, const std::string& more = "") {
  ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"21\" body_id=\"1\"/>\n" + request +
                                    "\n" + more));
  RequestBuilt built;
  if (result.spec) {
    if (const std::optional<Model> model = buildModel(*result.spec, result.diagnostics)) {
      built.requests = model->requests->requests.size();
    }
  }
  built.diagnostics = std::move(result.diagnostics);
  return built;
}

TEST(PostRequestDeck, EveryWritableTypeReadsAndBuilds) {
  for (const std::string type : {"MARKER_DISPLACEMENT", "MARKER_VELOCITY", "MARKER_ACCELERATION"}) {
    const RequestBuilt built = readRequest("<Post_Request id=\"7\" type=\"" + type +
                                     "\" i_marker_id=\"20\" j_marker_id=\"21\" ref_marker_id=\"0\" comment=\"c\"/>");
    EXPECT_EQ(built.diagnostics.errorCount() + built.diagnostics.warningCount(), 0) << built.diagnostics.formatAll();
    EXPECT_EQ(built.requests, 1u) << type;
  }
  // As MotionView writes it: unused components are "NULL".
  const RequestBuilt expression = readRequest(
      "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"NULL\" expr2=\"DX(20,21,21)\" expr3=\" null \" "
      "expr4=\"WDTZ(20)*RTOD\" expr5=\"NULL\" expr6=\"NULL\" expr7=\"NULL\" expr8=\"TIME\"/>");
  EXPECT_EQ(expression.diagnostics.errorCount() + expression.diagnostics.warningCount(), 0)
      << expression.diagnostics.formatAll();
  EXPECT_EQ(expression.requests, 1u);
  // A force element between 20 and 21: the force request has something to sum, and no warning.
  const RequestBuilt force = readRequest(
      "<Post_Request id=\"7\" type=\"MARKER_FORCE\" i_marker_id=\"21\" j_marker_id=\"20\"/>",
      "<Force_Scalar_TwoBody id=\"8\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"21\" val=\"1\"/>");
  EXPECT_EQ(force.diagnostics.errorCount() + force.diagnostics.warningCount(), 0) << force.diagnostics.formatAll();
  EXPECT_EQ(force.requests, 1u);
}

TEST(PostRequestDeck, MarkerForceBetweenMarkersNothingJoinsIsWarnedAbout) {
  const RequestBuilt built =
      readRequest("<Post_Request id=\"7\" type=\"MARKER_FORCE\" i_marker_id=\"20\" j_marker_id=\"21\"/>");
  EXPECT_TRUE(hasWarning(built.diagnostics, kRequestLine,
                         "Post_Request id=7: no joint, motion or force element acts between Reference_Marker id=20 "
                         "and id=21, so this request's force is zero"));
  EXPECT_EQ(built.requests, 1u) << "still written";
  const RequestBuilt atOne = readRequest("<Post_Request id=\"7\" type=\"MARKER_FORCE\" i_marker_id=\"20\"/>");
  EXPECT_TRUE(hasWarning(atOne.diagnostics, kRequestLine, "acts at Reference_Marker id=20,"));
}

TEST(PostRequestDeck, UserSubroutinesNameTheirLibraryAndElementalForcesAreNotWritten) {
  // A REQSUB whose library is not installed (Altair's mbdtire): one error naming it, at the element's line.
  const RequestBuilt usersub = readRequest(
      "<Post_Request id=\"7\" type=\"USERSUB\" usrsub_param_string=\"USER(902,1,30401)\" usrsub_dll_name=\"mbdtire\" "
      "usrsub_fnc_name=\"reqsub\"/>");
  EXPECT_TRUE(hasError(usersub.diagnostics, kRequestLine,
                       "Post_Request id=7: usrsub_dll_name=\"mbdtire\": library \"mbdtire\" not found (tried "));
  EXPECT_EQ(usersub.diagnostics.errorCount(), 1) << usersub.diagnostics.formatAll();
  const RequestBuilt elemental = readRequest(
      "<Post_Request id=\"7\" type=\"ELEMENTAL_FORCE\" elem_type=\"JOINT\" jflag=\"0\" ref_marker_id=\"21\"/>");
  EXPECT_TRUE(hasWarning(elemental.diagnostics, kRequestLine, "type=\"ELEMENTAL_FORCE\" is not supported yet"));
  EXPECT_EQ(elemental.requests, 0u);
}

TEST(PostRequestDeck, ExpressionErrorsPointAtTheColumnInsideTheirAttribute) {
  const RequestBuilt built = readRequest(
      "<Post_Request id=\"7\" type=\"EXPRESSION\" expr2=\"DZ(20) + SINN(TIME)\" expr5=\"JOINT(1,0,4)\"/>");
  EXPECT_TRUE(hasError(built.diagnostics, kRequestLine,
                       "Post_Request id=7: expr2=\"DZ(20) + SINN(TIME)\", column 10: unknown function 'SINN'"));
  EXPECT_TRUE(hasError(built.diagnostics, kRequestLine,
                       "expr5=\"JOINT(1,0,4)\", column 1: JOINT takes 4 arguments (id, jflag, comp, rm), got 3"));
  EXPECT_TRUE(hasError(readRequest("<Post_Request id=\"7\" type=\"EXPRESSION\" expr8=\"DX(20, 77)\"/>").diagnostics,
                       kRequestLine, "expr8=\"DX(20, 77)\", column 8: names Reference_Marker id=77, which the deck "
                                     "does not have"));
}

TEST(PostRequestDeck, MarkerRequestsNeedTheirIMarkerAndEveryRequestItsType) {
  EXPECT_TRUE(hasError(readRequest("<Post_Request id=\"7\" type=\"MARKER_VELOCITY\" j_marker_id=\"21\"/>").diagnostics,
                       kRequestLine, "Post_Request id=7: missing required attribute 'i_marker_id'"));
  EXPECT_TRUE(hasError(readRequest("<Post_Request id=\"7\" type=\"MARKER_FORCE\" i_marker_id=\"77\"/>").diagnostics,
                       kRequestLine, "attribute 'i_marker_id' refers to Reference_Marker id=77, which is not defined"));
  EXPECT_TRUE(hasError(readRequest("<Post_Request id=\"7\" i_marker_id=\"20\"/>").diagnostics, kRequestLine,
                       "missing required attribute 'type'"));
}

}  // namespace
}  // namespace lodestone::testing
