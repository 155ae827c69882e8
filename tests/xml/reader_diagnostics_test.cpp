// The reader's diagnostics: each test asserts the message and the line it points at.
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <future>
#include <sys/stat.h>
#include <unistd.h>

#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

TEST(ReaderDiagnostics, SmallestDeckReadsWithoutDiagnostics) {
  const ReadResult result = readText(deck(groundAndBody()));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(result.diagnostics.entries().empty()) << result.diagnostics.formatAll();
  EXPECT_EQ(result.spec->bodies.size(), 2u);
  EXPECT_EQ(result.spec->markers.size(), 1u);
  ASSERT_EQ(result.spec->commands.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<SimulateSpec>(result.spec->commands[0]));
}

TEST(ReaderDiagnostics, ReportsLineAndColumnOfTheElementStart) {
  const ReadResult result = readText(deck(groundAndBody() + "\n   <Body_Rigid id=\"3\"\n      mass=\"-1\"/>"));
  ASSERT_FALSE(result.spec);
  const Diagnostic* found = nullptr;
  for (const Diagnostic& d : result.diagnostics.entries()) {
    if (d.message.find("'mass'") != std::string::npos) found = &d;
  }
  ASSERT_NE(found, nullptr) << result.diagnostics.formatAll();
  EXPECT_EQ(found->format(), "deck.xml:6:4: Body_Rigid id=3: attribute 'mass' must be >= 0 (got -1)");
}

TEST(ReaderDiagnostics, MalformedXmlNamesTheLine) {
  const ReadResult result = readText("<MultiBodySystem>\n<Model>\n<Body_Rigid id=\"1\" isground=\"TRUE\">\n</Model>\n"
                                     "</MultiBodySystem>\n");
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 4, "malformed XML")) << result.diagnostics.formatAll();
}

TEST(ReaderDiagnostics, MissingRequiredAttribute) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\"/>"));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Reference_Marker id=30: missing required attribute 'body_id'"));
}

TEST(ReaderDiagnostics, MissingIdIsAnError) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker body_id=\"1\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Reference_Marker: missing required attribute 'id'"));
}

TEST(ReaderDiagnostics, UnparsableNumbers) {
  for (const std::string bad : {"abc", "nan", "NaN", "inf", "-inf", "1e999", "1.0.0", "0x10", ""}) {
    const ReadResult result = readText(deck(
        "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
        "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"" + bad + "\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>"));
    EXPECT_FALSE(result.spec) << bad;
    EXPECT_TRUE(hasError(result.diagnostics, 5,
                         "Body_Rigid id=2: attribute 'mass' must be a finite number (got '" + bad + "')"))
        << bad;
  }
}

// A value of ten thousand characters is quoted by its start and end, not whole.
TEST(ReaderDiagnostics, AHugeValueIsShortenedInItsMessage) {
  const std::string value = std::string(10'000, '9') + "x";
  const ReadResult result =
      readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\" pos_x=\"" + value + "\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "attribute 'pos_x' must be a finite number (got '99999"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "...[9801 characters left out]...999"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "999x')"));
  EXPECT_LT(result.diagnostics.formatAll().size(), 400u) << result.diagnostics.formatAll();
}

TEST(ReaderDiagnostics, NumbersInExporterSpellings) {
  const ReadResult result = readText(deck(
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"600.\" "
      "pos_y=\" 1.0000E-10 \" pos_z=\"2.5D1\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"4.6299222\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_DOUBLE_EQ(result.spec->markers[0].pos_x, 600.0);
  EXPECT_DOUBLE_EQ(result.spec->markers[0].pos_y, 1e-10);
  EXPECT_DOUBLE_EQ(result.spec->markers[0].pos_z, 25.0);
}

TEST(ReaderDiagnostics, OutOfRangeValues) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Param_Transient integr_tol=\"0\" max_order=\"7\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Param_Transient: attribute 'integr_tol' must be > 0 (got 0)"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "attribute 'max_order' must be >= 1 and <= 5 (got 7)"));
}

TEST(ReaderDiagnostics, StepLimitsMustBeConsistent) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Param_Transient h_max=\"0.01\" h_min=\"0.1\" h0_max=\"0.5\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Param_Transient: h_min 0.1 exceeds h_max 0.01"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Param_Transient: h0_max 0.5 exceeds h_max 0.01"));
}

TEST(ReaderDiagnostics, MassMustBePositiveForAMovingBody) {
  const ReadResult result = readText(deck(
      "<Reference_Marker id=\"20\" body_id=\"2\"/>\n<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"0\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 4, "Body_Rigid id=2: a moving body needs mass > 0"));
}

TEST(ReaderDiagnostics, DanglingReference) {
  const ReadResult result = readText(deck(
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"99\" mass=\"1\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>"));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 4,
                       "Body_Rigid id=2: attribute 'cg_id' refers to Reference_Marker id=99, which is not defined"));
}

TEST(ReaderDiagnostics, DuplicateIdNamesTheFirstDefinition) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"20\" body_id=\"1\"/>"));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 6,
                       "Reference_Marker id=20: duplicate id: Reference_Marker id=20 is already defined at deck.xml:4:1"));
}

TEST(ReaderDiagnostics, SameIdInDifferentElementKindsIsFine) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"2\" body_id=\"1\"/>"));
  EXPECT_TRUE(result.spec) << result.diagnostics.formatAll();
}

TEST(ReaderDiagnostics, UnknownElementsAndAttributesAreWarningsWithTheirLines) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Gizmo id=\"4\"/>\n<Reference_Marker id=\"30\" "
                                                            "body_id=\"1\" colour=\"red\"/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "deck.xml:6:1: warning: unknown element <Gizmo> ignored"));
  EXPECT_TRUE(hasWarning(result.diagnostics, 7, "Reference_Marker id=30: unknown attribute 'colour' ignored"));
  EXPECT_EQ(result.diagnostics.warningCount(), 2);
}

// The first five are named; the others are counted in one warning on the element's line.
TEST(ReaderDiagnostics, ManyUnknownAttributesAreSummarised) {
  std::string attributes;
  for (int k = 0; k < 8; ++k) attributes += " colour" + std::to_string(k) + "=\"red\"";
  const ReadResult result =
      readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\"" + attributes + "/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "unknown attribute 'colour4' ignored"));
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "Reference_Marker id=30: ... and 3 more unknown attributes ignored"));
  EXPECT_EQ(result.diagnostics.warningCount(), 6) << result.diagnostics.formatAll();
}

// Far more attributes than any element has is refused before the DOM is built (whose cost grew with the square of
// their number): one error at the element, none per attribute.
TEST(ReaderDiagnostics, AnElementWithThousandsOfAttributesIsRefused) {
  std::string attributes;
  for (int k = 0; k < 2000; ++k) attributes += " a" + std::to_string(k) + "=\"1\"";
  const ReadResult result =
      readText(deck(groundAndBody() + "\n  <Reference_Marker id=\"30\"" + attributes + " body_id=\"1\"/>"));
  EXPECT_FALSE(result.spec);
  ASSERT_EQ(result.diagnostics.size(), 1u) << result.diagnostics.formatAll();
  EXPECT_EQ(result.diagnostics.entries()[0].format(),
            "deck.xml:6:3: Reference_Marker id=30: has 2002 attributes; an element may have at most 1000 "
            "(MotionSolve's have fewer than 100)");
}

TEST(ReaderDiagnostics, UnexpectedChildElementIsAWarning) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\">\n"
                                                            "<Extra/>\n</Reference_Marker>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, 7, "unexpected element inside <Reference_Marker> ignored"));
}

TEST(ReaderDiagnostics, NamesValuesAndKeywordsAreCaseInsensitive) {
  const ReadResult result = readText(
      "<multibodysystem><MODEL>\n<body_rigid ID=\"1\" IsGround=\"true\"/>\n<REFERENCE_MARKER Id=\"20\" Body_ID=\"2\"/>\n"
      "<Body_Rigid id=\"2\" CG_ID=\"20\" Mass=\"1\" INERTIA_XX=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>\n"
      "<param_unit length_unit=\"millimeter\" force_unit=\"Newton\" mass_unit=\"KiloGram\" time_unit=\"SECOND\"/>\n"
      "</MODEL><command><simulate analysis_type=\"TRANSIENT\" end_time=\"1\" num_steps=\"10\"/><stop/></command>"
      "</multibodysystem>");
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(result.spec->bodies[0].isground);
  EXPECT_EQ(result.spec->units->length_unit, "MILLIMETER");
  ASSERT_EQ(result.spec->commands.size(), 2u);
  EXPECT_EQ(std::get<SimulateSpec>(result.spec->commands[0]).analysis_type, "Transient");
  EXPECT_TRUE(std::holds_alternative<StopSpec>(result.spec->commands[1]));
}

TEST(ReaderDiagnostics, AttributeRepeatedInAnotherCase) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\" "
                                                            "pos_x=\"1\" POS_X=\"2\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "attribute 'pos_x' is given more than once"));
}

TEST(ReaderDiagnostics, BadKeywordListsTheChoices) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Param_Unit length_unit=\"FURLONG\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "attribute 'length_unit' must be one of METER, MILLIMETER"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "(got 'FURLONG')"));
}

TEST(ReaderDiagnostics, BadBoolean) {
  const ReadResult result = readText(deck("<Body_Rigid id=\"1\" isground=\"maybe\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 3, "attribute 'isground' must be TRUE or FALSE (got 'maybe')"));
}

TEST(ReaderDiagnostics, EveryProblemIsReportedNotJustTheFirst) {
  const ReadResult result = readText(deck(
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"x\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"-3\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>\n"
      "<Reference_Marker id=\"21\" body_id=\"7\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 4, "'pos_x'"));
  EXPECT_TRUE(hasError(result.diagnostics, 5, "'mass'"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "refers to Body_Rigid id=7"));
}

TEST(ReaderDiagnostics, UnsupportedMotionSolveElementIsAnErrorNamingIt) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Constraint_Mate id=\"5\" joint_id=\"3\"/>"));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Constraint_Mate id=5: element is not supported: this constraint"));
}

TEST(ReaderDiagnostics, UnsupportedAttributeIsAnErrorNamingIt) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\" node_id=\"4\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Reference_Marker id=30: attribute 'node_id' is not supported"));
}

// MotionSolve's result-file settings have nothing to set in Lodestone's files: each is named in a warning, and the
// element itself is read (it switches the animation on).
TEST(ReaderDiagnostics, ResultFileSettingsAreWarnings) {
  const ReadResult result =
      readText(deck(groundAndBody() + "\n<ResOutput abf_file=\"TRUE\" contact_gra_output=\"FALSE\"/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "ResOutput: attribute 'abf_file' has no effect in Lodestone"));
  ASSERT_TRUE(result.spec->resOutput);
  EXPECT_FALSE(result.spec->resOutput->contact_gra_output);
  EXPECT_FALSE(result.spec->h3dOutput);
}

TEST(ReaderDiagnostics, H3DOutputIncrementMustBePositive) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<H3DOutput switch_on=\"TRUE\" increment=\"0\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "H3DOutput: attribute 'increment'"));
}

TEST(ReaderDiagnostics, IgnoredAttributeSaysWhy) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Param_Transient integr_tol=\"1e-4\" dae_index=\"3\"/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "attribute 'dae_index' has no effect in Lodestone"));
}

// Param_Static as the vehicle decks write it reads without an error: the limits are read, the MKEAM-only and
// solver-internal attributes are ignored with their reason, and MKEAM itself is run as a force-imbalance solve.
TEST(ReaderDiagnostics, ParamStaticReadsItsLimitsAndSaysWhatItIgnores) {
  const ReadResult result = readText(deck(groundAndBody() + R"(
<Param_Static method="MKEAM" max_error="1e-4" max_imbalance="1e-4" stability="1e-10" max_ke_tol="1e-5"
              max_dq_tol="0.001" max_num_iter="75"/>)"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  ASSERT_TRUE(result.spec->statics);
  EXPECT_EQ(result.spec->statics->max_num_iter, 75);
  EXPECT_EQ(result.spec->statics->max_imbalance, 1e-4);
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "method MKEAM (kinetic energy attrition) runs as a force-imbalance"));
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "attribute 'max_ke_tol' has no effect in Lodestone"));
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "attribute 'stability' has no effect in Lodestone"));
  const ReadResult wrong = readText(deck(groundAndBody() + "\n<Param_Static max_num_iter=\"0\" method=\"NEWTON\"/>"));
  EXPECT_TRUE(hasError(wrong.diagnostics, 6, "attribute 'max_num_iter' must be >= 1"));
  EXPECT_TRUE(hasError(wrong.diagnostics, 6, "'method'"));
}

TEST(ReaderDiagnostics, CommandInModelAndModelElementInCommand) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Simulate end_time=\"1\" print_interval=\"0.1\"/>",
                                          "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                          "<Reference_Marker id=\"20\" pos_x=\"1\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "Simulate: is a command: it belongs in <Command>"));
  EXPECT_TRUE(hasError(result.diagnostics, 10, "Reference_Marker id=20: cannot appear in <Command>"));
}

TEST(ReaderDiagnostics, RootMustBeMultiBodySystem) {
  const ReadResult result = readText("<?xml version=\"1.0\"?>\n<Model/>\n");
  EXPECT_TRUE(hasError(result.diagnostics, 2, "the root element is <Model>; a deck's root element is <MultiBodySystem>"));
}

TEST(ReaderDiagnostics, DeckWithoutSimulateIsReported) {
  const ReadResult result = readText("<MultiBodySystem><Model>" + groundAndBody() + "</Model></MultiBodySystem>");
  EXPECT_FALSE(result.spec);
  EXPECT_NE(result.diagnostics.formatAll().find("the deck has no Simulate command"), std::string::npos)
      << result.diagnostics.formatAll();
}

TEST(ReaderDiagnostics, NotXmlAtAll) {
  {
    const ReadResult empty = readText("");
    EXPECT_FALSE(empty.spec);
    EXPECT_NE(empty.diagnostics.formatAll().find("deck.xml: the file is empty"), std::string::npos);
  }
  {
    const ReadResult blank = readText("  \n\t\n");
    EXPECT_NE(blank.diagnostics.formatAll().find("the file is empty"), std::string::npos);
  }
  {
    std::string binary = "\x7f" "ELF\x02\x01\x01";
    binary.push_back('\0');
    binary += "\x03\x00\x3e";
    const ReadResult result = readText(binary);
    EXPECT_FALSE(result.spec);
    EXPECT_NE(result.diagnostics.formatAll().find("binary data, not an XML deck"), std::string::npos);
  }
  {
    const ReadResult text = readText("this is not xml\n");
    EXPECT_FALSE(text.spec);
    EXPECT_TRUE(hasError(text.diagnostics, 1, "malformed XML"));
  }
  {
    const std::string whole = deck(groundAndBody());
    const ReadResult truncated = readText(whole.substr(0, whole.size() / 2));
    EXPECT_FALSE(truncated.spec);
    EXPECT_NE(truncated.diagnostics.formatAll().find("malformed XML"), std::string::npos)
        << truncated.diagnostics.formatAll();
  }
}

// The same deck in UTF-16 (as Windows editors save it), either byte order, with its byte order mark and a
// declaration saying UTF-16, reads as in UTF-8 and its diagnostics have the same lines and columns.
TEST(ReaderDiagnostics, UTF16DecksAreReadWithTheirPositions) {
  const std::string text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<MultiBodySystem><Model>\n" +
                           groundAndBody() +
                           "\n  <Reference_Marker id=\"30\" body_id=\"1\" label=\"Stra\xC3\x9F" "e\" colour=\"red\"/>\n"
                           "</Model>\n<Command>\n<Simulate analysis_type=\"Transient\" end_time=\"1\" "
                           "print_interval=\"0.1\"/>\n</Command></MultiBodySystem>\n";
  // UTF-8 to UTF-16 by hand: the deck's characters are all in the Basic Multilingual Plane.
  std::u16string units;
  for (size_t k = 0; k < text.size(); ++k) {
    const unsigned char byte = static_cast<unsigned char>(text[k]);
    if (byte < 0x80) {
      units.push_back(byte);
    } else {
      units.push_back(static_cast<char16_t>(((byte & 0x1F) << 6) | (static_cast<unsigned char>(text[++k]) & 0x3F)));
    }
  }
  for (const bool bigEndian : {false, true}) {
    std::string bytes = bigEndian ? "\xFE\xFF" : "\xFF\xFE";
    for (const char16_t unit : units) {
      const char high = static_cast<char>(unit >> 8), low = static_cast<char>(unit & 0xFF);
      bytes += bigEndian ? std::string{high, low} : std::string{low, high};
    }
    const ReadResult result = readText(bytes);
    ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
    EXPECT_EQ(result.spec->markers.back().label, "Stra\xC3\x9F" "e");
    EXPECT_TRUE(hasWarning(result.diagnostics, 6, "deck.xml:6:3: warning: Reference_Marker id=30: unknown attribute "
                                                  "'colour' ignored"));
  }
}

// A Latin-1 byte in a deck read as UTF-8 is named at its own line and column (Xerces placed it where it had started
// decoding, on line 1); with the encoding declared, the same bytes read.
TEST(ReaderDiagnostics, AByteThatIsNotUtf8IsPlacedWhereItIs) {
  const std::string model = groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\"/>\n"
                                              "<Reference_Marker id=\"31\" body_id=\"1\"/>\n"
                                              "<Reference_Marker id=\"32\" body_id=\"1\" label=\"caf\xE9\"/>";
  const ReadResult undeclared = readText(deck(model));
  EXPECT_FALSE(undeclared.spec);
  ASSERT_EQ(undeclared.diagnostics.size(), 1u) << undeclared.diagnostics.formatAll();
  EXPECT_EQ(undeclared.diagnostics.entries()[0].format().substr(0, 51),
            "deck.xml:8:49: byte 0xE9 is not UTF-8, the encoding");
  std::string declared = deck(model);
  declared.replace(0, declared.find('\n'), "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>");
  const ReadResult latin1 = readText(declared);
  ASSERT_TRUE(latin1.spec) << latin1.diagnostics.formatAll();
  EXPECT_EQ(latin1.spec->markers.back().label, "caf\xC3\xA9");
}

TEST(ReaderDiagnostics, ExternalEntitiesAreNeverLoaded) {
  const ReadResult result = readText(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE MultiBodySystem [ <!ENTITY secret SYSTEM \"file:///etc/passwd\"> ]>\n"
      "<MultiBodySystem><Model><Body_Rigid id=\"1\" isground=\"TRUE\" label=\"&secret;\"/></Model></MultiBodySystem>");
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 2, "a deck may not contain a DOCTYPE declaration"));
  EXPECT_EQ(result.diagnostics.formatAll().find("root:"), std::string::npos);
}

TEST(ReaderDiagnostics, ExternalDtdIsNeverLoaded) {
  const ReadResult result = readText("<?xml version=\"1.0\"?>\n<!DOCTYPE MultiBodySystem SYSTEM \"/etc/passwd\">\n"
                                     "<MultiBodySystem/>");
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 2, "DOCTYPE"));
}

TEST(ReaderDiagnostics, EntityExpansionBombIsRefused) {
  std::string bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n";
  std::string previous = "lol";
  for (int level = 1; level <= 9; ++level) {
    const std::string name = "lol" + std::to_string(level);
    bomb += "<!ENTITY " + name + " \"";
    for (int i = 0; i < 10; ++i) bomb += "&" + previous + ";";
    bomb += "\">\n";
    previous = name;
  }
  bomb += "]>\n<MultiBodySystem><Model><Body_Rigid id=\"1\" isground=\"TRUE\" label=\"&" + previous +
          ";\"/></Model></MultiBodySystem>";
  const ReadResult result = readText(bomb);
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, 2, "DOCTYPE"));
}

TEST(ReaderDiagnostics, MissingFileIsAClearError) {
  Diagnostics diagnostics;
  EXPECT_FALSE(readDeck("/nonexistent/deck.xml", diagnostics));
  EXPECT_EQ(diagnostics.formatAll(), "/nonexistent/deck.xml: cannot open the deck: No such file or directory\n");
}

// Opening a FIFO waits for a writer for ever, so only its type may be looked at; were it opened, the read is released
// after a minute (a writer that closes at once gives end of file) and the test fails rather than hangs. A folder is
// refused the same way.
TEST(ReaderDiagnostics, AFifoOrAFolderIsRefusedWithoutBeingOpened) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("lodestone_reader_fifo_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const std::string fifo = (folder / "deck.xml").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::future<std::string> reading = std::async(std::launch::async, [&] {
    Diagnostics diagnostics;
    readDeck(fifo, diagnostics);
    return diagnostics.formatAll();
  });
  if (reading.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    ::close(::open(fifo.c_str(), O_WRONLY));
    FAIL() << "reading " << fifo << " waited for a writer: " << reading.get();
  }
  EXPECT_EQ(reading.get(), fifo + ": is a FIFO, not a regular file\n");
  Diagnostics diagnostics;
  EXPECT_FALSE(readDeck(folder.string(), diagnostics));
  EXPECT_EQ(diagnostics.formatAll(), folder.string() + ": is a folder, not a deck file\n");
  std::filesystem::remove_all(folder);
}

TEST(ReaderDiagnostics, CommentsAndProcessingInstructionsAreHarmless) {
  const ReadResult result = readText(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"http://example.com/x.xsl\"?>\n"
      "<MultiBodySystem xmlns:xs=\"http://www.w3.org/2001/XMLSchema-instance\" hw_version=\"2022.0\">\n<!-- a note -->\n"
      "<Model>" + groundAndBody() + "</Model><Command><Simulate end_time=\"1\" print_interval=\"0.5\"/></Command>"
      "</MultiBodySystem>");
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(result.diagnostics.entries().empty()) << result.diagnostics.formatAll();
}

TEST(ReaderDiagnostics, ElementCountsForTheLog) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\"/>"));
  ASSERT_TRUE(result.spec);
  ASSERT_EQ(result.spec->elementCounts.size(), 2u);
  EXPECT_EQ(result.spec->elementCounts[0].element, "Body_Rigid");
  EXPECT_EQ(result.spec->elementCounts[0].count, 2);
  EXPECT_EQ(result.spec->elementCounts[1].element, "Reference_Marker");
  EXPECT_EQ(result.spec->elementCounts[1].count, 2);
}

}  // namespace
}  // namespace lodestone::testing
