// Reads a MotionSolve XML deck with Xerces-C into a ModelSpec. Xerces' DOM keeps no line numbers, so a parser
// subclass records where each element starts while parsing. Decks never load external entities: a DOCTYPE is
// refused outright, which also rules out entity-expansion bombs.
#include "deck_reader.h"

#include <iconv.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>

#include <xercesc/dom/DOM.hpp>
#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/internal/XMLScanner.hpp>
#include <xercesc/parsers/XercesDOMParser.hpp>
#include <xercesc/sax/ErrorHandler.hpp>
#include <xercesc/sax/SAXParseException.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/util/TransService.hpp>
#include <xercesc/util/XMLString.hpp>

#include "elements/element_catalog.h"
#include "elements/reference_param_curve.h"
#include "solver/core/input_file.h"
#include "solver/core/text.h"
#include "solver/xml/xerces_setup.h"

namespace lodestone {

namespace xc = XERCES_CPP_NAMESPACE;

namespace {

std::string utf8(const XMLCh* text) {
  if (!text) return {};
  xc::TranscodeToStr transcoded(text, "UTF-8");
  return std::string(reinterpret_cast<const char*>(transcoded.str()), transcoded.length());
}

struct TextPosition {
  int line = 0;
  int column = 0;
};

// Maps byte offsets of the deck to 1-based line and column (columns count characters, not UTF-8 bytes).
class PositionMap {
 public:
  explicit PositionMap(const std::string& text) : text_(text) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') lineStarts_.push_back(i + 1);
    }
  }

  TextPosition at(size_t offset) const {
    offset = std::min(offset, text_.size());
    const auto next = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
    const size_t lineStart = *(next - 1);
    int column = 1;
    for (size_t i = lineStart; i < offset; ++i) {
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;  // skip UTF-8 continuation bytes
    }
    return {static_cast<int>(next - lineStarts_.begin()), column};
  }

  // The '<' that opens the start tag ending just before `offset` ('<' cannot occur inside a tag).
  size_t tagStart(size_t offset) const {
    offset = std::min(offset, text_.size());
    while (offset > 0 && text_[offset - 1] != '<') --offset;
    return offset > 0 ? offset - 1 : 0;
  }

 private:
  const std::string& text_;
  std::vector<size_t> lineStarts_;
};

struct DoctypeRefused {};

// MotionSolve's elements have fewer than a hundred attributes, so a thousand is no deck. Xerces' DOM keeps each
// attribute name in a pool whose lookups get slower as it grows, so building one element of a million attributes took
// minutes: such an element is refused before the DOM sees it.
constexpr XMLSize_t kMaxAttributesPerElement = 1000;

struct TooManyAttributes {
  TextPosition at;
  std::string element;
  std::optional<long> id;
  XMLSize_t count = 0;
};

// A DOM parser that remembers where each element starts and refuses document type declarations.
class LocatingParser : public xc::XercesDOMParser {
 public:
  explicit LocatingParser(const PositionMap& positions) : positions_(positions) {}

  void startElement(const xc::XMLElementDecl& elemDecl, const unsigned int urlId, const XMLCh* const elemPrefix,
                    const xc::RefVectorOf<xc::XMLAttr>& attrList, const XMLSize_t attrCount, const bool isEmpty,
                    const bool isRoot) override {
    if (attrCount > kMaxAttributesPerElement) refuseAttributes(elemDecl, attrList, attrCount);
    xc::XercesDOMParser::startElement(elemDecl, urlId, elemPrefix, attrList, attrCount, isEmpty, isRoot);
    // The new element is the current node, also for an empty element (the scanner sends endElement separately).
    const xc::DOMNode* node = getCurrentNode();
    const size_t end = static_cast<size_t>(getScanner()->getSrcOffset());
    starts_[node] = positions_.at(positions_.tagStart(end));
  }

  void doctypeDecl(const xc::DTDElementDecl&, const XMLCh* const, const XMLCh* const, const bool, const bool) override {
    refusedDoctypeAt_ = TextPosition{static_cast<int>(getScanner()->getLocator()->getLineNumber()),
                                     static_cast<int>(getScanner()->getLocator()->getColumnNumber())};
    throw DoctypeRefused{};
  }

  [[noreturn]] void refuseAttributes(const xc::XMLElementDecl& elemDecl, const xc::RefVectorOf<xc::XMLAttr>& attrList,
                                     XMLSize_t attrCount) const {
    TooManyAttributes refused;
    refused.at = positions_.at(positions_.tagStart(static_cast<size_t>(getScanner()->getSrcOffset())));
    refused.element = utf8(elemDecl.getFullName());
    refused.count = attrCount;
    for (XMLSize_t k = 0; k < attrCount; ++k) {
      const xc::XMLAttr* attribute = attrList.elementAt(k);
      if (equalsIgnoreCase(utf8(attribute->getName()), "id")) refused.id = parseInteger(utf8(attribute->getValue()));
    }
    throw refused;
  }

  TextPosition start(const xc::DOMNode* node) const {
    const auto it = starts_.find(node);
    return it == starts_.end() ? TextPosition{} : it->second;
  }
  TextPosition refusedDoctypeAt() const { return refusedDoctypeAt_; }

 private:
  const PositionMap& positions_;
  std::unordered_map<const xc::DOMNode*, TextPosition> starts_;
  TextPosition refusedDoctypeAt_;
};

// Collects Xerces' well-formedness errors as diagnostics.
class ParseErrorCollector : public xc::ErrorHandler {
 public:
  ParseErrorCollector(const std::string& file, Diagnostics& diagnostics) : file_(file), diagnostics_(diagnostics) {}

  void warning(const xc::SAXParseException& e) override { report(e, false); }
  void error(const xc::SAXParseException& e) override { report(e, true); }
  void fatalError(const xc::SAXParseException& e) override { report(e, true); }
  void resetErrors() override {}
  bool failed() const { return failed_; }

 private:
  void report(const xc::SAXParseException& e, bool isError) {
    SourceLoc where;
    where.file = file_;
    where.line = static_cast<int>(e.getLineNumber());
    where.column = static_cast<int>(e.getColumnNumber());
    const std::string message = "malformed XML: " + utf8(e.getMessage());
    if (isError) {
      diagnostics_.error(where, message);
      failed_ = true;
    } else {
      diagnostics_.warning(where, message);
    }
  }

  std::string file_;
  Diagnostics& diagnostics_;
  bool failed_ = false;
};

// Walks the DOM of a parsed deck and hands each element to its reader from the element catalog.
class DeckWalker {
 public:
  DeckWalker(const std::string& file, const LocatingParser& parser, ModelSpec& spec, ReadContext& context,
             const std::vector<AttributeSetting>& settings, std::vector<DeckElement>* elements)
      : file_(file), parser_(parser), spec_(spec), context_(context), settings_(settings),
        settingUsed_(settings.size(), false), namesakeIds_(settings.size()), elements_(elements) {}

  // The settings that matched no element, each an error naming the deck file (no element has a line to give).
  void reportUnusedSettings() {
    for (size_t k = 0; k < settings_.size(); ++k) {
      if (settingUsed_[k]) continue;
      SourceLoc where;
      where.file = file_;
      const AttributeSetting& setting = settings_[k];
      const std::string which =
          setting.id ? setting.element + " id=" + std::to_string(*setting.id) : setting.element + " without an id";
      // What would be right: the ids the deck does give that element.
      std::string present;
      for (const std::optional<long>& id : namesakeIds_[k]) {
        present += (present.empty() ? "" : ", ") + (id ? std::to_string(*id) : std::string("(none)"));
      }
      const std::string hint = present.empty() ? "; it has no " + setting.element + " at all"
                                               : "; its " + setting.element + " ids are " + present;
      context_.diagnostics().error(where, "setting " + setting.text() + ": the deck has no " + which + hint);
    }
  }

  void walkRoot(const xc::DOMElement* root) {
    const SourceLoc rootLoc = locate(root, utf8(root->getTagName()));
    if (!equalsIgnoreCase(utf8(root->getTagName()), "MultiBodySystem")) {
      context_.diagnostics().error(rootLoc, "the root element is <" + utf8(root->getTagName()) +
                                                ">; a deck's root element is <MultiBodySystem>");
      return;
    }
    bool sawModel = false;
    for (const xc::DOMElement* section = root->getFirstElementChild(); section;
         section = section->getNextElementSibling()) {
      const std::string name = utf8(section->getTagName());
      if (equalsIgnoreCase(name, "Model")) {
        sawModel = true;
        walkSection(section, "Model");
      } else if (equalsIgnoreCase(name, "Command")) {
        walkSection(section, "Command");
      } else {
        readElement(section, "", {"Model", "Command"});  // Messaging, or something unknown
      }
    }
    if (!sawModel) context_.diagnostics().error(rootLoc, "the deck has no <Model> section");
  }

 private:
  SourceLoc locate(const xc::DOMNode* node, const std::string& element) const {
    const TextPosition position = parser_.start(node);
    SourceLoc loc;
    loc.file = file_;
    loc.line = position.line;
    loc.column = position.column;
    loc.element = element;
    return loc;
  }

  void walkSection(const xc::DOMElement* section, const std::string& sectionName) {
    for (const xc::DOMElement* element = section->getFirstElementChild(); element;
         element = element->getNextElementSibling()) {
      readElement(element, sectionName);
    }
  }

  ElementNode nodeOf(const xc::DOMElement* element, const ElementKind* kind) const {
    ElementNode node;
    node.tag = utf8(element->getTagName());
    node.loc = locate(element, kind ? kind->element : "");
    const xc::DOMNamedNodeMap* attributes = element->getAttributes();
    for (XMLSize_t i = 0; i < attributes->getLength(); ++i) {
      const xc::DOMNode* attribute = attributes->item(i);
      node.attributes.push_back({toLower(utf8(attribute->getNodeName())), utf8(attribute->getNodeValue())});
    }
    for (const xc::DOMNode* child = element->getFirstChild(); child; child = child->getNextSibling()) {
      const auto type = child->getNodeType();
      if (type == xc::DOMNode::TEXT_NODE || type == xc::DOMNode::CDATA_SECTION_NODE) {
        node.text += utf8(child->getNodeValue());
      }
    }
    // Ids in messages about elements that are only acknowledged (not read by a schema).
    for (const ElementNode::Attribute& attribute : node.attributes) {
      if (attribute.name == "id" && kind) node.loc.id = parseInteger(attribute.value);
    }
    return node;
  }

  // The settings for this element replace its attributes' values or add attributes, before any reader sees them.
  // A setting describes the model: the same element written again in <Command> (a change between simulations) is
  // left as the deck wrote it. The attributes it sets are marked, so that one the element does not have is an error
  // (reportUnknownAttribute), not the warning the deck's own would get.
  void applySettings(ElementNode& node, const ElementKind* kind, const std::string& section) {
    if (section == "Command" && kind && kind->readInModel) return;
    std::optional<long> id;
    for (const ElementNode::Attribute& attribute : node.attributes) {
      if (attribute.name == "id") id = parseInteger(attribute.value);
    }
    for (size_t k = 0; k < settings_.size(); ++k) {
      const AttributeSetting& setting = settings_[k];
      if (!equalsIgnoreCase(setting.element, node.tag)) continue;
      namesakeIds_[k].push_back(id);
      if (setting.id != id) continue;
      settingUsed_[k] = true;
      const std::string name = toLower(setting.attribute);
      const auto given = std::find_if(node.attributes.begin(), node.attributes.end(),
                                      [&](const ElementNode::Attribute& attribute) { return attribute.name == name; });
      if (given != node.attributes.end()) *given = {name, setting.value, true};
      else node.attributes.push_back({name, setting.value, true});
    }
  }

  // `section`: "Model", "Command" or empty (directly under the root). `sections`: names of the sections that could
  // stand where the element does, for a misspelt one.
  void readElement(const xc::DOMElement* element, const std::string& section,
                   const std::vector<std::string>& sections = {}) {
    const bool isCommand = section == "Command";
    const std::string name = utf8(element->getTagName());
    const ElementKind* kind = findElementKind(name);
    ElementNode node = nodeOf(element, kind);
    applySettings(node, kind, section);
    if (elements_) elements_->push_back({node, section});
    Diagnostics& diagnostics = context_.diagnostics();
    for (const xc::DOMElement* child = element->getFirstElementChild(); child; child = child->getNextElementSibling()) {
      diagnostics.warning(locate(child, utf8(child->getTagName())),
                          "unexpected element inside <" + name + "> ignored");
    }
    if (!kind) {
      std::vector<std::string> known = sections;
      for (const ElementKind* other : allElementKinds()) known.push_back(other->element);
      const std::vector<std::string> meant = nearestNames(name, known);
      const std::string suggestion = meant.empty() ? "" : "; did you mean " + listAlternatives(meant, "<", ">") + "?";
      diagnostics.warning(node.loc, "unknown element <" + name + "> ignored" + suggestion);
      return;
    }
    if (kind->support == ElementSupport::IgnoredWithWarning) {
      diagnostics.warning(node.loc, "element ignored: " + kind->note);
      return;
    }
    if (kind->support == ElementSupport::NotSupported) {
      diagnostics.error(node.loc, "element is not supported: " + kind->note);
      return;
    }
    if (isCommand) {
      if (kind->readInCommand) kind->readInCommand(node, spec_, context_);
      else diagnostics.error(node.loc, "cannot appear in <Command>: it can only be defined in <Model>");
      return;
    }
    if (!kind->readInModel) {
      diagnostics.error(node.loc, "is a command: it belongs in <Command>, not in <Model>");
      return;
    }
    kind->readInModel(node, spec_, context_);
    countElement(kind->element);
  }

  void countElement(const std::string& element) {
    for (ElementCount& count : spec_.elementCounts) {
      if (count.element == element) {
        ++count.count;
        return;
      }
    }
    spec_.elementCounts.push_back({element, 1});
  }

  std::string file_;
  const LocatingParser& parser_;
  ModelSpec& spec_;
  ReadContext& context_;
  const std::vector<AttributeSetting>& settings_;
  std::vector<bool> settingUsed_;
  std::vector<std::vector<std::optional<long>>> namesakeIds_;  // per setting: the ids of the elements of its name
  std::vector<DeckElement>* elements_;
};

// A deck saved as UTF-16 (Windows editors do, with a byte order mark) converted to UTF-8, the text whose bytes the
// reader counts lines and columns in; nothing when the text does not start as UTF-16 XML would. Throws
// xc::XMLException when it is not valid UTF-16.
std::optional<std::string> utf16AsUtf8(const std::string& text) {
  const auto startsWith = [&](std::string_view prefix) { return std::string_view(text).starts_with(prefix); };
  const char* encoding = nullptr;
  size_t skipped = 0;
  if (startsWith("\xFF\xFE") && !startsWith(std::string_view("\xFF\xFE\0\0", 4))) {  // not UTF-32LE's mark
    encoding = "UTF-16LE";
    skipped = 2;
  } else if (startsWith("\xFE\xFF")) {
    encoding = "UTF-16BE";
    skipped = 2;
  } else if (startsWith(std::string_view("<\0?\0", 4))) {
    encoding = "UTF-16LE";
  } else if (startsWith(std::string_view("\0<\0?", 4))) {
    encoding = "UTF-16BE";
  }
  if (!encoding) return std::nullopt;
  const xc::TranscodeFromStr utf16(reinterpret_cast<const XMLByte*>(text.data()) + skipped, text.size() - skipped,
                                   encoding);
  const xc::TranscodeToStr converted(utf16.str(), utf16.length(), "UTF-8");
  return std::string(reinterpret_cast<const char*>(converted.str()), converted.length());
}

// The offset of the first byte of `text` that is not part of valid UTF-8 (a sequence cut short at the end included),
// or nothing when all of it is UTF-8. glibc's iconv checks as it converts and stops at that byte.
std::optional<size_t> firstInvalidUtf8(const std::string& text) {
  const iconv_t converter = iconv_open("UTF-32LE", "UTF-8");
  if (converter == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  char* in = const_cast<char*>(text.data());  // iconv's signature; it only reads the input
  size_t inLeft = text.size();
  std::array<char, 16384> scratch;
  std::optional<size_t> invalid;
  while (inLeft > 0) {
    char* out = scratch.data();
    size_t outLeft = scratch.size();
    if (iconv(converter, &in, &inLeft, &out, &outLeft) == static_cast<size_t>(-1) && errno != E2BIG) {
      invalid = static_cast<size_t>(in - text.data());
      break;
    }
  }
  iconv_close(converter);
  return invalid;
}

bool looksBinary(const std::string& text) {
  const size_t probe = std::min<size_t>(text.size(), 4096);
  for (size_t i = 0; i < probe; ++i) {
    if (text[i] == '\0') return true;
  }
  return false;
}

// The deck as Xerces reads it: in the encoding its first bytes and XML declaration give or, `asUtf8`, in UTF-8
// whatever they say (text converted from UTF-16 that still declares encoding="UTF-16").
std::optional<ModelSpec> parseDeck(const std::string& text, bool asUtf8, const std::string& displayName,
                                   Diagnostics& diagnostics, const std::vector<AttributeSetting>& settings,
                                   std::vector<DeckElement>* elements) {
  const int errorsBefore = diagnostics.errorCount();
  const size_t firstDiagnostic = diagnostics.size();
  SourceLoc fileLoc;
  fileLoc.file = displayName;
  if (looksBinary(text)) {
    diagnostics.error(fileLoc, "the file holds binary data, not an XML deck");
    return std::nullopt;
  }

  const PositionMap positions(text);
  LocatingParser parser(positions);
  Diagnostics xmlProblems;  // Xerces' own, kept back: a byte that is not UTF-8 replaces them
  ParseErrorCollector errors(displayName, xmlProblems);
  xc::SecurityManager security;
  security.setEntityExpansionLimit(100);
  parser.setSecurityManager(&security);
  parser.setErrorHandler(&errors);
  parser.setValidationScheme(xc::XercesDOMParser::Val_Never);
  parser.setDoNamespaces(false);
  parser.setDoSchema(false);
  parser.setLoadExternalDTD(false);
  parser.setLoadSchema(false);
  parser.setSkipDTDValidation(true);
  parser.setDisableDefaultEntityResolution(true);
  parser.setCreateEntityReferenceNodes(false);
  parser.setCreateCommentNodes(false);
  parser.setCalculateSrcOfs(true);

  xc::MemBufInputSource source(reinterpret_cast<const XMLByte*>(text.data()), text.size(), displayName.c_str());
  if (asUtf8) source.setEncoding(xc::XMLUni::fgUTF8EncodingString);
  try {
    parser.parse(source);
  } catch (const DoctypeRefused&) {
    diagnostics.append(xmlProblems);  // what Xerces said before, first
    SourceLoc where = fileLoc;
    where.line = parser.refusedDoctypeAt().line;
    where.column = parser.refusedDoctypeAt().column;
    diagnostics.error(where, "a deck may not contain a DOCTYPE declaration (decks cannot declare entities or load "
                             "external files)");
    return std::nullopt;
  } catch (const TooManyAttributes& refused) {
    diagnostics.append(xmlProblems);  // what Xerces said before, first
    SourceLoc where = fileLoc;
    where.line = refused.at.line;
    where.column = refused.at.column;
    where.element = refused.element;
    where.id = refused.id;
    diagnostics.error(where, "has " + std::to_string(refused.count) + " attributes; an element may have at most " +
                                 std::to_string(kMaxAttributesPerElement) + " (MotionSolve's have fewer than 100)");
    return std::nullopt;
  } catch (const xc::XMLException& e) {
    diagnostics.append(xmlProblems);  // what Xerces said before, first
    diagnostics.error(fileLoc, "cannot parse the deck: " + utf8(e.getMessage()));
    return std::nullopt;
  } catch (const xc::DOMException& e) {
    diagnostics.append(xmlProblems);  // what Xerces said before, first
    diagnostics.error(fileLoc, "cannot parse the deck: " + utf8(e.getMessage()));
    return std::nullopt;
  }
  const xc::DOMDocument* document = parser.getDocument();
  if (errors.failed()) {
    // Xerces decodes ahead of where it parses, so it places a byte that is not UTF-8 at the start of the block it
    // was decoding (1:22 for a byte on line 8), and names it only by its place in its sequence: say which byte,
    // where. The deck is read as UTF-8 unless its declaration names another encoding.
    const std::string declared = document ? utf8(document->getXmlEncoding()) : std::string();
    const bool readAsUtf8 = asUtf8 || declared.empty() || equalsIgnoreCase(declared, "UTF-8");
    if (const std::optional<size_t> invalid = readAsUtf8 ? firstInvalidUtf8(text) : std::nullopt) {
      const TextPosition position = positions.at(*invalid);
      SourceLoc where = fileLoc;
      where.line = position.line;
      where.column = position.column;
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*invalid]));
      diagnostics.error(where, std::string("byte ") + byte + " is not UTF-8, the encoding the deck is read in; save "
                               "the deck as UTF-8, or declare its encoding in its first line, e.g. <?xml version="
                               "\"1.0\" encoding=\"ISO-8859-1\"?>");
    } else {
      diagnostics.append(xmlProblems);
    }
    return std::nullopt;
  }
  diagnostics.append(xmlProblems);
  if (!document || !document->getDocumentElement()) {
    diagnostics.error(fileLoc, "the file has no root element; a deck's root element is <MultiBodySystem>");
    return std::nullopt;
  }

  ModelSpec spec;
  spec.deckPath = displayName;
  ReadContext context(diagnostics);
  DeckWalker walker(displayName, parser, spec, context, settings, elements);
  walker.walkRoot(document->getDocumentElement());
  walker.reportUnusedSettings();
  context.checkReferences();
  fillCurvesFromMatrices(spec.paramCurves, spec.matrices, diagnostics);  // a matrix may follow its curve
  checkWholeDeck(spec, context);
  diagnostics.sortByPosition(firstDiagnostic);
  if (diagnostics.errorCount() != errorsBefore) return std::nullopt;
  return spec;
}

}  // namespace

std::optional<ModelSpec> readDeckText(const std::string& text, const std::string& displayName,
                                      Diagnostics& diagnostics, const std::vector<AttributeSetting>& settings,
                                      std::vector<DeckElement>* elements) {
  SourceLoc fileLoc;
  fileLoc.file = displayName;
  if (trim(text).empty()) {
    diagnostics.error(fileLoc, "the file is empty; a deck is an XML file with a <MultiBodySystem> root element");
    return std::nullopt;
  }
  initialiseXerces();
  std::optional<std::string> converted;
  try {
    converted = utf16AsUtf8(text);
  } catch (const xc::XMLException& e) {
    diagnostics.error(fileLoc, "the file starts as UTF-16 but is not valid UTF-16 (" + utf8(e.getMessage()) +
                                   "); save it as UTF-8");
    return std::nullopt;
  }
  return parseDeck(converted ? *converted : text, converted.has_value(), displayName, diagnostics, settings, elements);
}

std::optional<ModelSpec> readDeck(const std::string& path, Diagnostics& diagnostics,
                                  const std::vector<AttributeSetting>& settings, std::vector<DeckElement>* elements) {
  SourceLoc fileLoc;
  fileLoc.file = path;
  // A name that leads to anything but a regular file is refused before it is opened: a FIFO would block for ever.
  // A missing file goes on to the open, whose message is the system's.
  std::error_code ignored;
  if (std::filesystem::exists(path, ignored)) {
    if (std::optional<std::string> problem = inputFileProblem(path, "deck file")) {
      diagnostics.error(fileLoc, *problem);
      return std::nullopt;
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics.error(fileLoc, "cannot open the deck: " + std::string(std::strerror(errno)));
    return std::nullopt;
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) {
    diagnostics.error(fileLoc, "cannot read the deck: " + std::string(std::strerror(errno)));
    return std::nullopt;
  }
  return readDeckText(contents.str(), path, diagnostics, settings, elements);
}

}  // namespace lodestone
