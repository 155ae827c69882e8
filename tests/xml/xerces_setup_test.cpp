// Xerces-C as the deck reader links it (solver/xml/xerces_setup.cpp): a URL is refused, never fetched, and the
// panic handler is ours.
#include "solver/xml/xerces_setup.h"

#include <gtest/gtest.h>

#include <memory>

#include <xercesc/util/BinInputStream.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/XMLNetAccessor.hpp>
#include <xercesc/util/XMLString.hpp>
#include <xercesc/util/XMLURL.hpp>

namespace xc = XERCES_CPP_NAMESPACE;

namespace {

std::string utf8(const XMLCh* text) {
  char* transcoded = xc::XMLString::transcode(text);
  std::string result = transcoded;
  xc::XMLString::release(&transcoded);
  return result;
}

}  // namespace

// Were libcurl's accessor linked, opening the URL would try the network and fail with a NetAccessorException (or
// succeed); ours refuses the protocol before any connection, as a Xerces-C built without a net accessor does.
TEST(XercesSetup, AUrlIsRefusedWithoutTryingTheNetwork) {
  lodestone::initialiseXerces();
  ASSERT_NE(xc::XMLPlatformUtils::fgNetAccessor, nullptr);
  EXPECT_EQ(utf8(xc::XMLPlatformUtils::fgNetAccessor->getId()), "LocalFiles");

  const xc::XMLURL url("http://127.0.0.1:9/deck.xml");
  try {
    std::unique_ptr<xc::BinInputStream> stream(url.makeNewStream());
    FAIL() << "the URL was opened";
  } catch (const xc::MalformedURLException& refused) {
    EXPECT_NE(utf8(refused.getMessage()).find("http"), std::string::npos) << utf8(refused.getMessage());
  }
}

// A panic (Xerces-C cannot go on) ends the process with the reason on stderr and the exit code of a failed run.
TEST(XercesSetupDeathTest, APanicNamesTheParserAndExitsWithTwo) {
  lodestone::initialiseXerces();
  EXPECT_EXIT(xc::XMLPlatformUtils::panic(xc::PanicHandler::Panic_CantLoadMsgDomain), testing::ExitedWithCode(2),
              "lodestone: the XML parser \\(Xerces-C\\) cannot go on: .*");
}
