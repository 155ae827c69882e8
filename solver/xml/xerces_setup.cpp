// Xerces-C as Lodestone uses it: linked from Debian's static library, with a network accessor that refuses every
// URL in place of the libcurl one that library was built with, and a panic handler of our own.
//
// Why: Debian builds Xerces-C with libcurl, and libcurl brings 28 more libraries (gnutls, krb5, ldap, ssh2, libcrypto
// and so on) whose loading and constructors cost about 4.5 ms of every `lodestone check`, twice what reading the deck
// takes. A deck never needs the network: it is parsed from memory with DTDs and external entities refused (see
// deck_reader.cpp), so Xerces never asks for a URL. Xerces-C's own build option for this is `network=OFF`, which
// leaves its net accessor null; Debian's package has no such build, so the accessor is supplied here instead.
//
// How: PlatformUtils.o, in the static archive, creates the accessor with `new CurlNetAccessor()`. The members below
// define that class (its declaration is Xerces-C's own installed header), so the linker takes them from this file and
// never pulls CurlNetAccessor.o, and with it libcurl, out of the archive. A URL gets the exception Xerces-C throws when
// it has no net accessor at all. Linking the archive fails loudly (duplicate or missing symbols) if a later Xerces-C
// changes this class, rather than linking something that half works.
//
// DefaultPanicHandler::panic is defined here for the same reason of linking: the archive's DefaultPanicHandler.o
// reads `stderr` position-dependently and cannot go into a shared object (the solver's module, the Python module).
// It does what Xerces-C's does (the reason on stderr, then exit), naming the program and with the exit code of a
// failed run.
#include "solver/xml/xerces_setup.h"

#include <cstdio>
#include <cstdlib>

#include <xercesc/util/DefaultPanicHandler.hpp>
#include <xercesc/util/NetAccessors/Curl/CurlNetAccessor.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/XMLExceptMsgs.hpp>
#include <xercesc/util/XMLUniDefs.hpp>

XERCES_CPP_NAMESPACE_BEGIN

int CurlNetAccessor::fgCurlInitCount = 0;
const XMLCh CurlNetAccessor::fgMyName[] = {chLatin_L, chLatin_o, chLatin_c, chLatin_a, chLatin_l, chLatin_F,
                                           chLatin_i, chLatin_l, chLatin_e, chLatin_s, chNull};

CurlNetAccessor::CurlNetAccessor() {}
CurlNetAccessor::~CurlNetAccessor() {}
void CurlNetAccessor::initCurl() {}
void CurlNetAccessor::cleanupCurl() {}

BinInputStream* CurlNetAccessor::makeNew(const XMLURL& urlSource, const XMLNetHTTPInfo*) {
  ThrowXMLwithMemMgr1(MalformedURLException, XMLExcepts::URL_UnsupportedProto1, urlSource.getProtocolName(),
                      XMLPlatformUtils::fgMemoryManager);
}

void DefaultPanicHandler::panic(const PanicHandler::PanicReasons reason) {
  std::fprintf(stderr, "lodestone: the XML parser (Xerces-C) cannot go on: %s\n",
               PanicHandler::getPanicReasonString(reason));
  std::exit(2);
}

XERCES_CPP_NAMESPACE_END

namespace lodestone {

void initialiseXerces() {
  static const bool initialised = [] {
    XERCES_CPP_NAMESPACE::XMLPlatformUtils::Initialize();
    return true;
  }();
  (void)initialised;
}

}  // namespace lodestone
