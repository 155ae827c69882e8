// MotionSolve expressions: a recursive-descent parser that emits a postfix program while it reads (folding
// constant parts as it goes), and the loop that runs the program on a fixed stack.
#include "expression.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "solver/core/step_functions.h"
#include "solver/core/text.h"

namespace lodestone {

namespace {

enum class TokenKind { Number, Name, Plus, Minus, Star, Slash, Power, LeftParen, RightParen, Comma, End, Colon };

struct Token {
  TokenKind kind = TokenKind::End;
  size_t offset = 0;  // 0-based, in the text
  size_t length = 0;  // 0 for End
  double number = 0;  // Number: its value, a D suffix already turned into radians
  bool inDegrees = false;
  size_t end() const { return offset + length; }
};

// Thrown inside the compiler at the first problem; compile() turns it into its ExpressionError.
struct CompileFailure {
  ExpressionError error;
};

[[noreturn]] void fail(size_t offset, std::string message) {
  throw CompileFailure{{static_cast<int>(offset) + 1, std::move(message)}};
}

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Deeper nesting than this is refused rather than risking the parser's own (recursive) stack.
constexpr int kMaxNesting = 200;

struct NamedConstant {
  const char* name;
  double value;
};
constexpr std::array<NamedConstant, 3> kConstants{{
    {"PI", std::numbers::pi},
    {"DTOR", std::numbers::pi / 180},
    {"RTOD", 180 / std::numbers::pi},
}};

struct ContactPointName {
  const char* name;
  ContactPointSymbol symbol;
  const char* meaning;
};
constexpr std::array<ContactPointName, kContactPointSymbolCount> kContactPointNames{{
    {"DELTA", ContactPointSymbol::Penetration, "the penetration at a contact point"},
    {"DELTA_DOT", ContactPointSymbol::PenetrationRate, "the penetration rate at a contact point"},
    {"SLIP_T1", ContactPointSymbol::SlipT1, "the slip along a contact frame's first tangent"},
    {"SLIP_T2", ContactPointSymbol::SlipT2, "the slip along a contact frame's second tangent"},
    {"NORMAL_FORCE", ContactPointSymbol::NormalForce, "the normal force of a contact patch"},
}};

// MotionSolve names a deck may use that Lodestone cannot evaluate yet: a clear refusal instead of "unknown name".
struct UnavailableName {
  const char* name;
  const char* reason;
};
constexpr const char* kNeedsCurves =
    "Reference_ParamCurve's spline is parameterised by chord length in its graphic's plane, for 2D contact, not by "
    "MotionSolve's u, so CURVE(alpha, iord, comp, id) would not give MotionSolve's values";
constexpr const char* kNotYet = nullptr;  // no more to say than "not available yet in expressions"
constexpr UnavailableName kUnavailable[] = {
    {"CURVE", kNeedsCurves},
    {"DELAY", kNotYet}, {"INVPSD", kNotYet},
};

// The functions that read one element's loads at its markers: name, element kind, and the deck element it names.
struct ElementLoadFunction {
  const char* name;
  LoadSource source;
  const char* element;
};
constexpr ElementLoadFunction kElementLoadFunctions[] = {
    {"JOINT", LoadSource::Joint, "Constraint_Joint"},       {"JPRIM", LoadSource::Jprim, "Constraint_Jprim"},
    {"MOTION", LoadSource::Motion, "Motion_Joint"},         {"SFORCE", LoadSource::ScalarForce, "Force_Scalar_TwoBody"},
    {"VFORCE", LoadSource::VectorForce, "Force_Vector"},    {"VTORQ", LoadSource::VectorForce, "Force_Vector"},
    {"GFORCE", LoadSource::VectorForce, "Force_Vector"},    {"BUSH", LoadSource::Bushing, "Force_Bushing"},
    {"SPDP", LoadSource::SpringDamper, "Force_SpringDamper"}, {"BEAM", LoadSource::Beam, "Force_Beam"},
    {"FIELD", LoadSource::Field, "Force_Field"},
};
// FX…TM: the loads on a marker from the elements between it and another, `component` numbered as comp of JOINT.
struct MarkerLoadFunction {
  const char* name;
  int component;
};
constexpr MarkerLoadFunction kMarkerLoadFunctions[] = {
    {"FM", 1}, {"FX", 2}, {"FY", 3}, {"FZ", 4}, {"TM", 5}, {"TX", 6}, {"TY", 7}, {"TZ", 8},
};

// What folding runs is constants and operations on them: nothing asks a context, but run needs one.
class ConstantsOnly : public ExpressionContext {
 public:
  double time() const override { return std::numeric_limits<double>::quiet_NaN(); }
  MarkerMotion marker(int) const override { return {}; }
};

std::string hexByte(char c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(c);
  return std::string("0x") + kDigits[byte >> 4] + kDigits[byte & 0xF];
}

std::string countOf(int count, const char* singular, const char* plural) {
  return std::to_string(count) + " " + (count == 1 ? singular : plural);
}

}  // namespace

// Reads the text one token ahead and appends to the program as each part is recognised, so that the operands of an
// operation are always the last values pushed — which is also what lets constant parts fold on the spot.
class ExpressionCompiler {
 public:
  ExpressionCompiler(std::string_view text, ContactPointSymbols contactPoint)
      : text_(text), contactPoint_(contactPoint) {}

  Expression compile() {
    try {
      current_ = lex(0);
      if (current_.kind == TokenKind::End) fail(0, "empty expression");
      parseSum();
      if (current_.kind == TokenKind::RightParen) fail(current_.offset, "')' has no matching '('");
      if (current_.kind != TokenKind::End) {
        fail(current_.offset, "expected an operator or the end, found " + describe(current_));
      }
    } catch (CompileFailure& failure) {
      unknownNames_.push_back(std::move(failure.error));
    }
    if (!unknownNames_.empty()) {
      std::stable_sort(unknownNames_.begin(), unknownNames_.end(),
                       [](const ExpressionError& a, const ExpressionError& b) { return a.column < b.column; });
      ExpressionError first = std::move(unknownNames_.front());
      first.further.assign(std::make_move_iterator(unknownNames_.begin() + 1),
                           std::make_move_iterator(unknownNames_.end()));
      throw CompileFailure{std::move(first)};
    }
    expression_.text_ = std::string(text_);
    return std::move(expression_);
  }

 private:
  using Operation = Expression::Operation;
  using Instruction = Expression::Instruction;

  struct FunctionEntry {
    const char* name;
    Operation operation;
    int argumentCount;
  };
  static constexpr FunctionEntry kFunctions[] = {
      {"SIN", Operation::Sin, 1},     {"COS", Operation::Cos, 1},     {"TAN", Operation::Tan, 1},
      {"ASIN", Operation::Asin, 1},   {"ACOS", Operation::Acos, 1},   {"ATAN", Operation::Atan, 1},
      {"SINH", Operation::Sinh, 1},   {"COSH", Operation::Cosh, 1},   {"TANH", Operation::Tanh, 1},
      {"SQRT", Operation::Sqrt, 1},   {"EXP", Operation::Exp, 1},     {"LOG", Operation::Log, 1},
      {"LOG10", Operation::Log10, 1}, {"ABS", Operation::Abs, 1},     {"AINT", Operation::Aint, 1},
      {"ANINT", Operation::Anint, 1}, {"ATAN2", Operation::Atan2, 2}, {"MIN", Operation::Min, 2},
      {"MAX", Operation::Max, 2},     {"MOD", Operation::Mod, 2},     {"SIGN", Operation::Sign, 2},
      {"STEP", Operation::Step, 5},   {"STEP5", Operation::Step5, 5}, {"SHF", Operation::Shf, 6},
      {"IMPACT", Operation::Impact, 7}, {"BISTOP", Operation::Bistop, 8},
      {"HAVSIN", Operation::Havsin, 5}, {"DIM", Operation::Dim, 2},
  };
  // Functions of a series of coefficients: the fewest and most arguments each takes (up to a30, as Adams has it).
  struct SeriesEntry {
    const char* name;
    Operation operation;
    int fewest, most;
    const char* form;
  };
  static constexpr SeriesEntry kSeries[] = {
      {"POLY", Operation::Poly, 3, 33, "POLY(x, x0, a0, ..., a30)"},
      {"CHEBY", Operation::Cheby, 3, 33, "CHEBY(x, x0, a0, ..., a30)"},
      {"FORCOS", Operation::Forcos, 4, 34, "FORCOS(x, x0, w, a0, ..., a30)"},
      {"FORSIN", Operation::Forsin, 4, 34, "FORSIN(x, x0, w, a0, ..., a30)"},
  };

  // ---- tokens ---------------------------------------------------------------------------------------------------

  Token lex(size_t at) const {
    while (at < text_.size() && std::isspace(static_cast<unsigned char>(text_[at]))) ++at;
    Token token;
    token.offset = at;
    if (at == text_.size()) return token;
    const char c = text_[at];
    if (isDigit(c) || (c == '.' && at + 1 < text_.size() && isDigit(text_[at + 1]))) return lexNumber(at);
    if (isNameStart(c)) {
      size_t end = at;
      while (end < text_.size() && isNameChar(text_[end])) ++end;
      token.kind = TokenKind::Name;
      token.length = end - at;
      return token;
    }
    token.length = 1;
    switch (c) {
      case '+': token.kind = TokenKind::Plus; break;
      case '-': token.kind = TokenKind::Minus; break;
      case '/': token.kind = TokenKind::Slash; break;
      case '(': token.kind = TokenKind::LeftParen; break;
      case ')': token.kind = TokenKind::RightParen; break;
      case ',': token.kind = TokenKind::Comma; break;
      case ':': token.kind = TokenKind::Colon; break;
      case '*':
        if (at + 1 < text_.size() && text_[at + 1] == '*') {
          token.kind = TokenKind::Power;
          token.length = 2;
        } else {
          token.kind = TokenKind::Star;
        }
        break;
      case '^': fail(at, "'^' is not an operator; write ** for a power");
      default:
        if (std::isprint(static_cast<unsigned char>(c))) fail(at, "unexpected character '" + std::string(1, c) + "'");
        // Half a UTF-8 sequence or a control character would print as garbage.
        fail(at, "unexpected byte " + hexByte(c) + " (an expression is plain ASCII text)");
    }
    return token;
  }

  // Digits with an optional fraction and exponent, then an optional D for degrees. An e not followed by digits, or
  // a D followed by more letters ("2DX"), is not part of the number: what follows is then reported as trailing text.
  Token lexNumber(size_t at) const {
    size_t end = at;
    const auto skipDigits = [&] {
      while (end < text_.size() && isDigit(text_[end])) ++end;
    };
    skipDigits();
    if (end < text_.size() && text_[end] == '.') {
      ++end;
      skipDigits();
    }
    if (end < text_.size() && (text_[end] == 'e' || text_[end] == 'E')) {
      size_t exponent = end + 1;
      if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-')) ++exponent;
      if (exponent < text_.size() && isDigit(text_[exponent])) {
        end = exponent;
        skipDigits();
      }
    }
    Token token;
    token.kind = TokenKind::Number;
    token.offset = at;
    const auto [parsedEnd, problem] = std::from_chars(text_.data() + at, text_.data() + end, token.number);
    if (problem != std::errc() || parsedEnd != text_.data() + end || !std::isfinite(token.number)) {
      fail(at, "number '" + std::string(text_.substr(at, end - at)) + "' is out of range");
    }
    if (end < text_.size() && (text_[end] == 'd' || text_[end] == 'D') &&
        !(end + 1 < text_.size() && isNameChar(text_[end + 1]))) {
      token.number *= std::numbers::pi / 180;
      token.inDegrees = true;
      ++end;
    }
    token.length = end - at;
    return token;
  }

  void advance() {
    previous_ = current_;
    current_ = lex(current_.end());
  }

  std::string_view textOf(const Token& token) const { return text_.substr(token.offset, token.length); }

  std::string describe(const Token& token) const {
    if (token.kind == TokenKind::End) return "the end";
    return "'" + std::string(textOf(token)) + "'";
  }

  static std::string columnOf(const Token& token) { return std::to_string(token.offset + 1); }

  // ---- grammar: sum := product (('+'|'-') product)*; product := signed (('*'|'/') signed)*;
  //               signed := ('+'|'-') signed | power; power := primary ('**' signed)? -------------------------------

  void parseSum() {
    const size_t start = current_.offset;
    parseProduct();
    while (current_.kind == TokenKind::Plus || current_.kind == TokenKind::Minus) {
      const Operation operation = current_.kind == TokenKind::Plus ? Operation::Add : Operation::Subtract;
      advance();
      parseProduct();
      emit(operation, 2, start);
    }
  }

  void parseProduct() {
    const size_t start = current_.offset;
    parseSigned();
    while (current_.kind == TokenKind::Star || current_.kind == TokenKind::Slash) {
      const Operation operation = current_.kind == TokenKind::Star ? Operation::Multiply : Operation::Divide;
      advance();
      parseSigned();
      emit(operation, 2, start);
    }
  }

  // Every recursion of the parser passes through here, so this is where nesting is limited.
  void parseSigned() {
    if (++nesting_ > kMaxNesting) {
      fail(current_.offset, "expression nests more than " + std::to_string(kMaxNesting) + " levels deep");
    }
    if (current_.kind == TokenKind::Plus || current_.kind == TokenKind::Minus) {
      const Token sign = current_;
      advance();
      parseSigned();
      if (sign.kind == TokenKind::Minus) emit(Operation::Negate, 1, sign.offset);
    } else {
      parsePower();
    }
    --nesting_;
  }

  // The exponent is a signed operand, which makes ** group to the right and lets -2**2 be -(2**2).
  void parsePower() {
    const size_t start = current_.offset;
    parsePrimary();
    if (current_.kind != TokenKind::Power) return;
    advance();
    parseSigned();
    std::vector<Instruction>& program = expression_.program_;
    // x**2 (DX(2)**2 + DY(2)**2) is common and pow is slow; x·x is the correctly rounded square, which is the
    // best pow can give.
    if (program.back().operation == Operation::Constant && program.back().constant == 2) {
      program.pop_back();
      --depth_;
      emit(Operation::Square, 1, start);
      return;
    }
    emit(Operation::Power, 2, start);
  }

  void parsePrimary() {
    switch (current_.kind) {
      case TokenKind::Number:
        pushConstant(current_.number, current_.offset);
        advance();
        return;
      case TokenKind::Name:
        parseName();
        return;
      case TokenKind::LeftParen: {
        const Token open = current_;
        advance();
        parseSum();
        if (current_.kind != TokenKind::RightParen) {
          // At the end, the '(' is what is wrong; before it, the token where ')' should be.
          const Token& at = current_.kind == TokenKind::End ? open : current_;
          fail(at.offset, "expected ')' to close '(' at column " + columnOf(open) + ", found " + describe(current_));
        }
        advance();
        return;
      }
      default: {
        const std::string after = previous_.length > 0 ? " after " + describe(previous_) : std::string();
        fail(current_.offset, "expected a number, name or '('" + after + ", found " + describe(current_));
      }
    }
  }

  void parseName() {
    const Token name = current_;
    const std::string written(textOf(name));
    const std::string upper = toUpper(written);
    advance();
    if (upper == "TIME") {
      rejectCall("TIME is the simulation time, not a function");
      pushValue(name.offset);
      expression_.program_.push_back({.operation = Operation::Time});
      return;
    }
    for (const NamedConstant& constant : kConstants) {
      if (upper == constant.name) {
        rejectCall(upper + " is a constant, not a function");
        pushConstant(constant.value, name.offset);
        return;
      }
    }
    for (const FunctionEntry& function : kFunctions) {
      if (upper == function.name) return parseFunctionCall(name, function);
    }
    if (const std::optional<MarkerMeasure> measure = findMarkerMeasure(upper)) return parseMeasureCall(name, *measure);
    if (upper == "VARVAL") return parseVariableCall(name);
    if (upper == "PINVAL") return parsePlantCall(name, PlantRead::Port::Input);
    if (upper == "POUVAL") return parsePlantCall(name, PlantRead::Port::Output);
    if (upper == "SENVAL") return parseSensorValueCall(name);
    if (upper == "DIF" || upper == "DIF1") return parseDifferentialCall(name, upper);
    if (upper == "CONTACT") return parseContactCall(name);
    if (upper == "AKISPL" || upper == "CUBSPL" || upper == "INTERP") return parseSplineCall(name, upper);
    if (upper == "ARYVAL") return parseArrayCall(name);
    if (upper == "IF") return parseIfCall(name);
    for (const SeriesEntry& series : kSeries) {
      if (upper == series.name) return parseSeriesCall(name, series);
    }
    for (const ElementLoadFunction& function : kElementLoadFunctions) {
      if (upper == function.name) return parseElementLoadCall(name, function);
    }
    for (const MarkerLoadFunction& function : kMarkerLoadFunctions) {
      if (upper == function.name) return parseMarkerLoadCall(name, function);
    }
    if (upper == "FRICTION") return parseFrictionCall(name);
    for (const ContactPointName& symbol : kContactPointNames) {
      if (upper != symbol.name) continue;
      rejectCall(upper + " is " + symbol.meaning + ", not a function");
      if ((contactPoint_ & contactPointSymbol(symbol.symbol)) == 0) {
        // Read past, as an unknown name, so that the rest of the text is checked too.
        const std::string where =
            symbol.symbol == ContactPointSymbol::NormalForce && contactPoint_ != 0
                ? " is read by a friction expression (cff_type=\"EXPRESSION\") only: the normal force is what this "
                  "expression gives"
                : " (" + std::string(symbol.meaning) + ") has a meaning only in a Force_Contact's contact-law "
                  "expressions (cnf_type=\"EXPRESSION\", cff_type=\"EXPRESSION\")";
        return skipUnknown(name, upper + where);
      }
      pushValue(name.offset);
      Instruction instruction{.operation = Operation::ContactPoint};
      instruction.markers[0] = static_cast<int>(symbol.symbol);
      expression_.program_.push_back(instruction);
      return;
    }
    for (const UnavailableName& unavailable : kUnavailable) {
      if (upper != unavailable.name) continue;
      const std::string why = unavailable.reason ? " (" + std::string(unavailable.reason) + ")" : " in expressions";
      return skipUnknown(name, upper + " is not available yet" + why);
    }
    skipUnknown(name, std::string(current_.kind == TokenKind::LeftParen ? "unknown function '" : "unknown name '") +
                          written + "'");
  }

  // A name the compiler cannot evaluate: said, and read past (with its arguments) as a value that is not a constant,
  // so that the rest of the text is checked too and nothing is folded with it.
  void skipUnknown(const Token& name, std::string message) {
    unknownNames_.push_back({static_cast<int>(name.offset) + 1, std::move(message), {}});
    if (current_.kind == TokenKind::LeftParen) {
      const size_t programSize = expression_.program_.size();
      const int depth = depth_;
      parseCall("'" + std::string(textOf(name)) + "'", [&](int) { parseSum(); });
      expression_.program_.resize(programSize);
      depth_ = depth;
    }
    pushValue(name.offset);
    expression_.program_.push_back({.operation = Operation::Time});
  }

  // A value name followed by '(' is a mistake worth its own message rather than "expected an operator".
  void rejectCall(const std::string& message) const {
    if (current_.kind == TokenKind::LeftParen) fail(current_.offset, message);
  }

  // '(' argument (',' argument)* ')' or '(' ')'; parseArgument reads one argument (given its 0-based index).
  // Returns how many there were.
  template <class ParseArgument>
  int parseCall(std::string_view functionName, ParseArgument parseArgument) {
    if (current_.kind != TokenKind::LeftParen) {
      fail(current_.offset, "expected '(' after " + std::string(functionName) + ", found " + describe(current_));
    }
    const Token open = current_;
    advance();
    if (current_.kind == TokenKind::RightParen) {
      advance();
      return 0;
    }
    for (int count = 1;; ++count) {
      parseArgument(count - 1);
      if (current_.kind == TokenKind::RightParen) {
        advance();
        return count;
      }
      if (current_.kind == TokenKind::End) {
        fail(open.offset, "expected ')' to close '(' at column " + columnOf(open) + ", found the end");
      }
      if (current_.kind != TokenKind::Comma) {
        fail(current_.offset, "expected ',' or ')' after argument " + std::to_string(count) + " of " +
                                  std::string(functionName) + ", found " + describe(current_));
      }
      advance();
    }
  }

  void parseFunctionCall(const Token& name, const FunctionEntry& function) {
    std::vector<std::optional<double>> constantArguments;  // each argument's value when it is a constant
    const int count = parseCall(function.name, [&](int) {
      const size_t programSize = expression_.program_.size();
      parseSum();
      const std::vector<Instruction>& program = expression_.program_;
      const bool constant = program.size() == programSize + 1 && program.back().operation == Operation::Constant;
      constantArguments.push_back(constant ? std::optional<double>(program.back().constant) : std::nullopt);
    });
    if (count != function.argumentCount) {
      fail(name.offset, std::string(function.name) + " takes " +
                            countOf(function.argumentCount, "argument", "arguments") + ", got " + std::to_string(count));
    }
    // A step whose ends are the wrong way round is a jump, never what was meant; caught here when both are known.
    const auto requireIncreasing = [&](size_t lower, size_t upper, const char* lowerName, const char* upperName) {
      const std::optional<double> a = constantArguments[lower];
      const std::optional<double> b = constantArguments[upper];
      if (a && b && !(*a < *b)) {
        fail(name.offset, std::string(function.name) + " needs " + lowerName + " < " + upperName + ", got " +
                              lowerName + " = " + formatReal(*a) + " and " + upperName + " = " + formatReal(*b));
      }
    };
    if (function.operation == Operation::Step || function.operation == Operation::Step5 ||
        function.operation == Operation::Havsin) {
      requireIncreasing(1, 3, "x0", "x1");
    } else if (function.operation == Operation::Bistop) {
      requireIncreasing(2, 3, "x1", "x2");
    }
    emit(function.operation, count, name.offset);
  }

  void parseMeasureCall(const Token& name, MarkerMeasure measure) {
    const std::string measureName(markerMeasureName(measure));
    std::vector<int> ids;
    std::vector<size_t> offsets;
    const int count = parseCall(measureName, [&](int index) {
      offsets.push_back(current_.offset);
      ids.push_back(parseIdLiteral(measureName, index, "marker id", "ids are 0 (ground) or positive", true));
    });
    const MarkerMeasureArguments accepted = markerMeasureArguments(measure);
    if (count < 1 || count > accepted.count) {
      const std::string range = accepted.count == 2 ? "1 or 2" : "1 to " + std::to_string(accepted.count);
      fail(name.offset, measureName + " takes " + range + " marker ids, got " + std::to_string(count));
    }
    Instruction instruction{.operation = Operation::Measure, .measure = measure};
    for (size_t k = 0; k < ids.size(); ++k) {
      instruction.markers[static_cast<size_t>(accepted.roles[k])] = ids[k];
      if (ids[k] != 0) noteId(expression_.markerIds_, expression_.markerColumns_, ids[k], offsets[k]);
    }
    if (measureReadsAcceleration(measure)) expression_.usesAcceleration_ = true;
    pushValue(name.offset);
    expression_.program_.push_back(instruction);
  }

  // VARVAL(id): one Reference_Variable id, whose value the context gives when the program runs.
  void parseVariableCall(const Token& name) {
    size_t offset = 0;
    int id = 0;
    const int count = parseCall("VARVAL", [&](int index) {
      offset = current_.offset;
      id = parseIdLiteral("VARVAL", index, "Reference_Variable id", "ids are positive", false);
    });
    if (count != 1) fail(name.offset, "VARVAL takes 1 Reference_Variable id, got " + std::to_string(count));
    noteId(expression_.variableIds_, expression_.variableColumns_, id, offset);
    pushValue(name.offset);
    Instruction instruction{.operation = Operation::Variable};
    instruction.markers[0] = id;
    expression_.program_.push_back(instruction);
  }

  // PINVAL(id, i), POUVAL(id, i): both literals; a Variable instruction reading nothing until the read is bound.
  void parsePlantCall(const Token& name, PlantRead::Port port) {
    PlantRead read{.port = port, .column = static_cast<int>(name.offset) + 1};
    const std::string function = read.function();
    const int count = parseCall(function, [&](int index) {
      if (index == 0) {
        read.id = parseIdLiteral(function, index, std::string(read.element()) + " id", "ids are positive", false);
      } else {
        read.position = parseIdLiteral(function, index, "variable number", "the variables count from 1", false);
      }
    });
    if (count != 2) fail(name.offset, function + " takes 2 arguments (id, i), got " + std::to_string(count));
    pushValue(name.offset);
    Instruction instruction{.operation = Operation::Variable};
    expression_.plantReads_.push_back(read);
    instruction.markers[1] = static_cast<int>(expression_.plantReads_.size());
    expression_.program_.push_back(instruction);
  }

  // SENVAL(id): one Sensor_Evaluate id, whose stored value the context gives when the program runs.
  void parseSensorValueCall(const Token& name) {
    size_t offset = 0;
    int id = 0;
    const int count = parseCall("SENVAL", [&](int index) {
      offset = current_.offset;
      id = parseIdLiteral("SENVAL", index, "Sensor_Evaluate id", "ids are positive", false);
    });
    if (count != 1) fail(name.offset, "SENVAL takes 1 Sensor_Evaluate id, got " + std::to_string(count));
    noteId(expression_.sensorValueIds_, expression_.sensorValueColumns_, id, offset);
    pushValue(name.offset);
    Instruction instruction{.operation = Operation::SensorValue};
    instruction.markers[0] = id;
    expression_.program_.push_back(instruction);
  }

  // DIF(id), DIF1(id): one Control_Diff id, whose state (or its derivative) the context gives.
  void parseDifferentialCall(const Token& name, const std::string& function) {
    size_t offset = 0;
    int id = 0;
    const int count = parseCall(function, [&](int index) {
      offset = current_.offset;
      id = parseIdLiteral(function, index, "Control_Diff id", "ids are positive", false);
    });
    if (count != 1) fail(name.offset, function + " takes 1 Control_Diff id, got " + std::to_string(count));
    noteId(expression_.differentialIds_, expression_.differentialColumns_, id, offset);
    std::vector<int>& rates = expression_.differentialRateIds_;
    if (function == "DIF1" && std::find(rates.begin(), rates.end(), id) == rates.end()) rates.push_back(id);
    pushValue(name.offset);
    Instruction instruction{.operation = Operation::Differential};
    instruction.markers[0] = id;
    instruction.markers[1] = function == "DIF1" ? 1 : 0;
    expression_.program_.push_back(instruction);
  }

  // CONTACT(id, jflag, comp, rm) or CONTACT(id, index, rm): told apart by the number of arguments, as MotionSolve's
  // manual does. Every argument is a literal, so a flag, component or index that cannot work is said here, at its
  // column, rather than found to be NaN while the model moves.
  void parseContactCall(const Token& name) {
    std::array<int, 4> values{};
    std::array<size_t, 4> offsets{};
    const int count = parseCall("CONTACT", [&](int index) {
      const size_t slot = static_cast<size_t>(std::min(index, 3));
      offsets[slot] = current_.offset;
      // Which form it is shows only at the ')', so the arguments after the id are named by their kind alone.
      values[slot] = parseIdLiteral("CONTACT", index, index == 0 ? "Force_Contact id" : "literal",
                                    index == 0 ? "ids are positive" : "it is 0 or positive", index != 0);
    });
    if (count != 3 && count != 4) {
      fail(name.offset, "CONTACT takes 4 arguments (id, jflag, comp, rm) or 3 (id, index, rm), got " +
                            std::to_string(count));
    }
    const int rm = count == 4 ? values[3] : values[2];
    const size_t rmOffset = count == 4 ? offsets[3] : offsets[2];
    Instruction instruction{.operation = Operation::Contact};
    instruction.markers = {values[0], -1, values[1], rm};
    if (count == 4) {
      if (values[1] > 1) {
        fail(offsets[1], "jflag " + std::to_string(values[1]) +
                             " of CONTACT is neither 0 (the loads on the I body) nor 1 (on the J body)");
      }
      checkLoadComponent("CONTACT", values[2], offsets[2]);
      instruction.markers = {values[0], values[1], values[2], rm};
    } else if (values[1] < 1 || values[1] > kContactIndexCount) {
      fail(offsets[1], "index " + std::to_string(values[1]) + " of CONTACT(id, index, rm) is not 1 to " +
                           std::to_string(kContactIndexCount) + " (1 penetration, 2 contact signal, 3 separation, " +
                           "4-5 normal and friction force, 6-8 relative velocity in the contact frame, 9-15 and " +
                           "16-22 the frame on J and on I, 23-25 point, 26-28 normal in rm's axes)");
    }
    noteId(expression_.contactIds_, expression_.contactColumns_, values[0], offsets[0]);
    if (rm != 0) noteId(expression_.markerIds_, expression_.markerColumns_, rm, rmOffset);
    pushValue(name.offset);
    expression_.program_.push_back(instruction);
  }

  // AKISPL(x, z, id[, iord]), CUBSPL(x, z, id[, iord]), INTERP(x, method, id[, iord]): x (and z) are expressions,
  // the rest literals. Whether the spline exists, and is a single curve where iord is given, the model checks.
  void parseSplineCall(const Token& name, const std::string& function) {
    const bool interp = function == "INTERP";
    SplineMethod method = function == "AKISPL" ? SplineMethod::Akima : SplineMethod::Cubic;
    int id = 0, order = 0;
    const int count = parseCall(function, [&](int index) {
      if (index == 0 || (index == 1 && !interp)) return parseSum();
      const size_t offset = current_.offset;
      if (index == 1) {
        const int code = parseIdLiteral(function, index, "method", "it is 1 (linear) or 3 (cubic)", false);
        if (code != 1 && code != 3) {
          fail(offset, "method " + std::to_string(code) + " of INTERP is neither 1 (linear) nor 3 (cubic)");
        }
        method = code == 1 ? SplineMethod::Linear : SplineMethod::Cubic;
      } else if (index == 2) {
        id = parseIdLiteral(function, index, "Reference_Spline id", "ids are positive", false);
      } else {
        order = parseIdLiteral(function, index, "derivative order iord", "it is 0, 1 or 2", true);
        if (order > 2) fail(offset, "iord " + std::to_string(order) + " of " + function + " is not 0, 1 or 2");
      }
    });
    if (count != 3 && count != 4) {
      fail(name.offset, function + " takes 3 or 4 arguments (" + (interp ? "x, method" : "x, z") +
                            ", id[, iord]), got " + std::to_string(count));
    }
    const int operandCount = interp ? 1 : 2;
    depth_ -= operandCount - 1;
    Instruction instruction{.operation = Operation::Spline, .operandCount = static_cast<std::uint8_t>(operandCount)};
    instruction.markers = {id, static_cast<int>(method), order, 0};
    expression_.program_.push_back(instruction);
    expression_.dataReferences_.push_back(
        {DataReference::Kind::Spline, id, static_cast<int>(name.offset) + 1, order, function});
  }

  // ARYVAL(id, n): element n (from 1) of a Reference_Array; both literals.
  void parseArrayCall(const Token& name) {
    std::array<int, 2> values{};
    const int count = parseCall("ARYVAL", [&](int index) {
      values[static_cast<size_t>(std::min(index, 1))] =
          index == 0 ? parseIdLiteral("ARYVAL", index, "Reference_Array id", "ids are positive", false)
                     : parseIdLiteral("ARYVAL", index, "element number", "elements count from 1", false);
    });
    if (count != 2) fail(name.offset, "ARYVAL takes 2 arguments (id, n), got " + std::to_string(count));
    pushValue(name.offset);
    Instruction instruction{.operation = Operation::ArrayValue};
    instruction.markers = {values[0], values[1], 0, 0};
    expression_.program_.push_back(instruction);
    expression_.dataReferences_.push_back(
        {DataReference::Kind::Array, values[0], static_cast<int>(name.offset) + 1, values[1], "ARYVAL"});
  }

  // IF(e: neg, zero, pos). MotionSolve's manual writes the ':' and some of its examples a ',' in its place; both are
  // read.
  void parseIfCall(const Token& name) {
    const char* const form = "IF(e: neg, zero, pos)";
    if (current_.kind != TokenKind::LeftParen) {
      fail(current_.offset, "expected '(' after IF, found " + describe(current_) + "; write " + form);
    }
    const Token open = current_;
    advance();
    for (int part = 0; part < 4; ++part) {
      parseSum();
      const bool last = part == 3;
      const bool colonAfterCondition = part == 0 && current_.kind == TokenKind::Colon;
      const bool separated = last ? current_.kind == TokenKind::RightParen
                                  : current_.kind == TokenKind::Comma || colonAfterCondition;
      if (!separated) {
        const Token& at = current_.kind == TokenKind::End ? open : current_;
        fail(at.offset, std::string("IF takes a condition and three values, ") + form + "; expected " +
                            (last ? "')'" : part == 0 ? "':'" : "','") + " after argument " + std::to_string(part + 1) +
                            ", found " + describe(current_));
      }
      advance();
    }
    emit(Operation::If, 4, name.offset);
  }

  // POLY, CHEBY, FORCOS, FORSIN: the argument and its shift (and frequency), then the coefficients.
  void parseSeriesCall(const Token& name, const SeriesEntry& series) {
    const int count = parseCall(series.name, [&](int) { parseSum(); });
    if (count < series.fewest || count > series.most) {
      fail(name.offset, std::string(series.name) + " takes " + std::to_string(series.fewest) + " to " +
                            std::to_string(series.most) + " arguments, " + series.form + ", got " +
                            std::to_string(count));
    }
    emit(series.operation, count, name.offset);
  }

  // comp of CONTACT, JOINT…: 1 |F|, 2-4 Fx Fy Fz, 5 |T|, 6-8 Tx Ty Tz (Expression::loadComponent).
  void checkLoadComponent(const std::string& function, int component, size_t offset) {
    if (component < 1 || component > 8) {
      fail(offset, "comp " + std::to_string(component) + " of " + function +
                       " is not 1 to 8 (1 |F|, 2-4 Fx Fy Fz, 5 |T|, 6-8 Tx Ty Tz)");
    }
  }

  // JOINT(id, jflag, comp, rm), SFORCE(…)…: four literals, checked here as CONTACT's are.
  void parseElementLoadCall(const Token& name, const ElementLoadFunction& function) {
    static constexpr const char* kArgumentNames[] = {"", "jflag", "comp", "marker id"};
    std::array<int, 4> values{};
    std::array<size_t, 4> offsets{};
    const int count = parseCall(function.name, [&](int index) {
      const size_t slot = static_cast<size_t>(std::min(index, 3));
      offsets[slot] = current_.offset;
      values[slot] = parseIdLiteral(function.name, index,
                                    index == 0 ? std::string(function.element) + " id" : kArgumentNames[slot],
                                    index == 0 ? "ids are positive" : "it is 0 or positive", index != 0);
    });
    const std::string functionName = function.name;
    if (count != 4) {
      fail(name.offset, functionName + " takes 4 arguments (id, jflag, comp, rm), got " + std::to_string(count));
    }
    if (values[1] > 1) {
      fail(offsets[1], "jflag " + std::to_string(values[1]) + " of " + functionName +
                           " is neither 0 (the loads at the I marker) nor 1 (at the J marker)");
    }
    checkLoadComponent(functionName, values[2], offsets[2]);
    if (values[3] != 0) noteId(expression_.markerIds_, expression_.markerColumns_, values[3], offsets[3]);
    expression_.loadReads_.push_back({function.name, function.source, values[0], static_cast<int>(name.offset) + 1});
    pushValue(name.offset);
    Instruction instruction{.operation = Operation::ElementLoad, .loadSource = function.source};
    instruction.markers = values;
    expression_.program_.push_back(instruction);
  }

  // FRICTION(id, comp[, rm]): literals; without rm, the components are along the joint's J marker's axes.
  void parseFrictionCall(const Token& name) {
    std::array<int, 3> values{0, 0, -1};
    std::array<size_t, 3> offsets{};
    const int count = parseCall("FRICTION", [&](int index) {
      const size_t slot = static_cast<size_t>(std::min(index, 2));
      offsets[slot] = current_.offset;
      values[slot] = parseIdLiteral("FRICTION", index,
                                    index == 0 ? "Force_JointFriction id" : index == 1 ? "comp" : "marker id",
                                    index == 2 ? "it is 0 or positive" : "it is positive", index == 2);
    });
    if (count < 2 || count > 3) {
      fail(name.offset, "FRICTION takes 2 or 3 arguments (id, comp[, rm]), got " + std::to_string(count));
    }
    if (values[1] > 18) {  // 0 is refused as it is read
      fail(offsets[1], "comp " + std::to_string(values[1]) + " of FRICTION is not 1 to 18 (1-3 FX FY FZ, 4-6 TX TY "
                       "TZ, 7-12 the translational and rotational friction coefficients, 13-18 the slip velocities)");
    }
    if (count == 3 && values[2] != 0) noteId(expression_.markerIds_, expression_.markerColumns_, values[2], offsets[2]);
    expression_.loadReads_.push_back({"FRICTION", LoadSource::Friction, values[0], static_cast<int>(name.offset) + 1});
    pushValue(name.offset);
    Instruction instruction{.operation = Operation::Friction, .loadSource = LoadSource::Friction};
    std::copy(values.begin(), values.end(), instruction.markers.begin());
    expression_.program_.push_back(instruction);
  }

  // FX(i[,j[,k]])…, FM and TM (i[,j]): marker ids, as a measure's.
  void parseMarkerLoadCall(const Token& name, const MarkerLoadFunction& function) {
    const int accepted = function.component == 1 || function.component == 5 ? 2 : 3;
    std::vector<int> ids;
    std::vector<size_t> offsets;
    const int count = parseCall(function.name, [&](int index) {
      offsets.push_back(current_.offset);
      ids.push_back(parseIdLiteral(function.name, index, "marker id", "ids are 0 (ground) or positive", true));
    });
    if (count < 1 || count > accepted) {
      fail(name.offset, std::string(function.name) + " takes " + (accepted == 2 ? "1 or 2" : "1 to 3") +
                            " marker ids, got " + std::to_string(count));
    }
    if (ids[0] == 0) fail(offsets[0], std::string(function.name) + " needs a marker i other than ground (0)");
    Instruction instruction{.operation = Operation::MarkerLoad};
    for (size_t k = 0; k < ids.size(); ++k) {
      instruction.markers[k] = ids[k];
      if (ids[k] != 0) noteId(expression_.markerIds_, expression_.markerColumns_, ids[k], offsets[k]);
    }
    instruction.markers[3] = function.component;
    expression_.loadReads_.push_back({function.name, LoadSource::None, ids[0], static_cast<int>(name.offset) + 1});
    pushValue(name.offset);
    expression_.program_.push_back(instruction);
  }

  // Records an id the expression names, once, with the column of its first appearance.
  static void noteId(std::vector<int>& ids, std::vector<int>& columns, int id, size_t offset) {
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) return;
    ids.push_back(id);
    columns.push_back(static_cast<int>(offset) + 1);
  }

  // An id is a literal: a whole number (0 for ground where `zeroAllowed`), with an optional sign (so that "-1" gets
  // a message about being negative rather than about not being a number). `what` names it in messages
  // ("marker id"), `allowed` says which ids are ("ids are 0 (ground) or positive").
  int parseIdLiteral(const std::string& functionName, int index, const std::string& what, const char* allowed,
                     bool zeroAllowed) {
    const Token first = current_;
    bool negative = false;
    while (current_.kind == TokenKind::Plus || current_.kind == TokenKind::Minus) {
      if (current_.kind == TokenKind::Minus) negative = !negative;
      advance();
    }
    if (current_.kind != TokenKind::Number) {
      fail(current_.offset, "expected a " + what + " (a whole number) as argument " + std::to_string(index + 1) +
                                " of " + functionName + ", found " + describe(current_));
    }
    const Token number = current_;
    advance();
    const std::string written(text_.substr(first.offset, number.end() - first.offset));
    const double value = negative ? -number.number : number.number;
    if (number.inDegrees || value != std::floor(value)) {
      fail(first.offset, what + " '" + written + "' of " + functionName + " is not a whole number");
    }
    if (value < 0 || (value == 0 && !zeroAllowed)) {
      fail(first.offset, what + " '" + written + "' of " + functionName + " is " + (value < 0 ? "negative" : "0") +
                             "; " + allowed);
    }
    if (value > INT_MAX) fail(first.offset, what + " '" + written + "' of " + functionName + " is too large");
    return static_cast<int>(value);
  }

  // ---- the program -------------------------------------------------------------------------------------------

  // Every push goes through here: it keeps count of the values the program will hold at once.
  void pushValue(size_t offset) {
    if (++depth_ > Expression::kStackCapacity) {
      fail(offset, "expression needs more than " + std::to_string(Expression::kStackCapacity) +
                       " values at once; split it into simpler parts");
    }
  }

  void pushConstant(double value, size_t offset) {
    pushValue(offset);
    expression_.program_.push_back({.operation = Operation::Constant, .constant = value});
  }

  // Appends an operation on the last `operandCount` values, or computes it now when they are all constants (they
  // are then exactly the last instructions). `start` is where the operation's text begins, for a constant part
  // that is not a number ("1/0").
  void emit(Operation operation, int operandCount, size_t start) {
    depth_ -= operandCount - 1;
    std::vector<Instruction>& program = expression_.program_;
    const size_t count = static_cast<size_t>(operandCount);
    const bool allConstant =
        program.size() >= count && std::all_of(program.end() - static_cast<std::ptrdiff_t>(count), program.end(),
                                               [](const Instruction& i) { return i.operation == Operation::Constant; });
    program.push_back({.operation = operation, .operandCount = static_cast<std::uint8_t>(operandCount)});
    if (!allConstant) return;
    const Instruction* folded = program.data() + program.size() - count - 1;
    const double value = Expression::run(folded, program.data() + program.size(), ConstantsOnly());
    if (!std::isfinite(value)) {
      const std::string part(text_.substr(start, previous_.end() - start));
      fail(start, "'" + part + "' " + (std::isnan(value) ? "is not a number (NaN)" : "is infinite"));
    }
    program.resize(program.size() - count - 1);
    program.push_back({.operation = Operation::Constant, .constant = value});
  }

  std::string_view text_;
  ContactPointSymbols contactPoint_ = 0;  // the contact-point symbols this expression may read
  Token current_;
  Token previous_;  // the token before current_, for "after '+'" in messages and the end of a constant part
  int nesting_ = 0;
  int depth_ = 0;  // values the program holds after what has been emitted so far
  Expression expression_;
  std::vector<ExpressionError> unknownNames_;  // said, and read past
};

void Expression::bindPlantRead(size_t k, int variableId) {
  PlantRead& read = plantReads_.at(k);
  read.variableId = variableId;
  for (Instruction& instruction : program_) {
    if (instruction.operation == Operation::Variable && instruction.markers[1] == static_cast<int>(k) + 1) {
      instruction.markers[0] = variableId;
    }
  }
  if (std::find(variableIds_.begin(), variableIds_.end(), variableId) != variableIds_.end()) return;
  variableIds_.push_back(variableId);
  variableColumns_.push_back(read.column);
}

bool Expression::usesTime() const {
  return std::any_of(program_.begin(), program_.end(),
                     [](const Instruction& instruction) { return instruction.operation == Operation::Time; });
}

bool Expression::usesVelocity() const {
  return std::any_of(program_.begin(), program_.end(), [](const Instruction& instruction) {
    return instruction.operation == Operation::Measure && measureReadsVelocity(instruction.measure);
  });
}

double ExpressionContext::variable(int) const { return std::numeric_limits<double>::quiet_NaN(); }
double ExpressionContext::differentialState(int, bool) const { return std::numeric_limits<double>::quiet_NaN(); }
double ExpressionContext::sensorValue(int) const { return std::numeric_limits<double>::quiet_NaN(); }

std::optional<ContactLoads> ExpressionContext::contact(int) const { return std::nullopt; }

std::optional<MarkerLoads> ExpressionContext::elementLoads(LoadSource, int) const { return std::nullopt; }
std::optional<FrictionMeasures> ExpressionContext::friction(int) const { return std::nullopt; }

std::optional<MarkerLoads> ExpressionContext::markerLoads(int, int) const { return std::nullopt; }

double ExpressionContext::contactPoint(ContactPointSymbol) const { return std::numeric_limits<double>::quiet_NaN(); }

double ExpressionContext::spline(SplineMethod, int, double, double, int) const {
  return std::numeric_limits<double>::quiet_NaN();
}

double ExpressionContext::arrayValue(int, int) const { return std::numeric_limits<double>::quiet_NaN(); }

std::variant<Expression, ExpressionError> Expression::compile(std::string_view text, ContactPointSymbols contactPoint) {
  try {
    return ExpressionCompiler(text, contactPoint).compile();
  } catch (CompileFailure& failure) {
    return std::move(failure.error);
  }
}

double Expression::evaluate(const ExpressionContext& context) const {
  return run(program_.data(), program_.data() + program_.size(), context);
}

double Expression::measureValue(const Instruction& instruction, const ExpressionContext& context) {
  static const MarkerMotion ground;
  // Optional so that the markers a measure does not name cost nothing: most name one or two of the four.
  std::array<std::optional<MarkerMotion>, 4> fetched;
  std::array<const MarkerMotion*, 4> motions;
  for (size_t k = 0; k < 4; ++k) {
    const int id = instruction.markers[k];
    motions[k] = id == 0 ? &ground : &fetched[k].emplace(context.marker(id));
  }
  return markerMeasure(instruction.measure, *motions[0], *motions[1], *motions[2], *motions[3]);
}

double Expression::contactIndexValue(const ContactLoads& loads, int index, int rm, const ExpressionContext& context) {
  // The vectors with a frame of their own first; then those resolved in rm's axes (the point from rm's origin).
  if (index >= kContactPointInJ && index < kContactPointInJ + 3) return loads.pointInJ[index - kContactPointInJ];
  if (index >= kContactFrameInJ && index < kContactFrameInJ + 4) return loads.frameInJ[index - kContactFrameInJ];
  if (index >= kContactPointInI && index < kContactPointInI + 3) return loads.pointInI[index - kContactPointInI];
  if (index >= kContactFrameInI && index < kContactFrameInI + 4) return loads.frameInI[index - kContactFrameInI];
  if (index >= kContactPoint) {
    const bool isPoint = index < kContactNormal;
    const int axis = index - (isPoint ? kContactPoint : kContactNormal);
    const Vector3& vector = isPoint ? loads.point : loads.normal;
    if (rm == 0) return vector[axis];
    const MarkerMotion frame = context.marker(rm);
    return frame.rotation.col(axis).dot(isPoint ? Vector3(vector - frame.position) : vector);
  }
  switch (index) {
    case kContactPenetration: return loads.penetration;
    case kContactSignal: return loads.inContact;
    case kContactSeparation: return loads.separation;
    case kContactNormalForce: return loads.normalForce;
    case kContactFrictionForce: return loads.frictionForce;
    case kContactNormalVelocity: return loads.normalVelocity;
    case kContactTangentialX: return loads.tangentialVelocity[0];
    case kContactTangentialX + 1: return loads.tangentialVelocity[1];
    default: return std::numeric_limits<double>::quiet_NaN();  // compile lets no other through
  }
}

double Expression::contactValue(const Instruction& instruction, const ExpressionContext& context) {
  const std::optional<ContactLoads> loads = context.contact(instruction.markers[0]);
  if (!loads) return std::numeric_limits<double>::quiet_NaN();
  const int jflag = instruction.markers[1], component = instruction.markers[2], rm = instruction.markers[3];
  if (jflag < 0) return contactIndexValue(*loads, component, rm, context);  // the index form
  return loadComponent(jflag == 0 ? loads->forceOnI : loads->forceOnJ,
                       jflag == 0 ? loads->torqueOnI : loads->torqueOnJ, component, rm, context);
}

double Expression::loadComponent(const Vector3& force, const Vector3& torque, int component, int rm,
                                 const ExpressionContext& context) {
  if (component == 1) return force.norm();
  if (component == 5) return torque.norm();
  const Vector3& vector = component < 5 ? force : torque;
  const int axis = (component - 2) % 4;
  // A magnitude needs no axes; a component is the vector's projection on rm's axis (its column in ground).
  if (rm == 0) return vector[axis];
  return context.marker(rm).rotation.col(axis).dot(vector);
}

namespace {

// POLY(x, x0, a0, …): Σ aj·(x − x0)^j, by Horner's rule from the highest coefficient.
double polySeries(const double* a, int count) {
  const double shifted = a[0] - a[1];
  double sum = 0;
  for (int j = count - 1; j >= 2; --j) sum = sum * shifted + a[j];
  return sum;
}

// CHEBY(x, x0, a0, …): Σ aj·Tj(x − x0), with T0 = 1, T1 = u, Tj = 2u·Tj−1 − Tj−2 (Chebyshev's polynomials).
double chebySeries(const double* a, int count) {
  const double u = a[0] - a[1];
  double previous = 1, current = u;
  double sum = a[2];
  for (int j = 3; j < count; ++j) {
    sum += a[j] * current;
    const double next = 2 * u * current - previous;
    previous = current;
    current = next;
  }
  return sum;
}

// FORCOS / FORSIN(x, x0, w, a0, a1, …): a0 + Σj≥1 aj·cos(j·w·(x − x0)) (sin for FORSIN).
double fourierSeries(const double* a, int count, bool sine) {
  const double phase = a[2] * (a[0] - a[1]);
  double sum = a[3];
  for (int j = 4; j < count; ++j) {
    const double angle = (j - 3) * phase;
    sum += a[j] * (sine ? std::sin(angle) : std::cos(angle));
  }
  return sum;
}

// HAVSIN(x, x0, h0, x1, h1): h0 up to x0, h1 from x1, and between them half a period of a sine from one to the other.
double haversineStep(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  return (h0 + h1) / 2 + (h1 - h0) / 2 * std::sin(std::numbers::pi * (x - x0) / (x1 - x0) - std::numbers::pi / 2);
}

}  // namespace

double Expression::loadValue(const Instruction& instruction, const ExpressionContext& context) {
  const std::array<int, 4>& m = instruction.markers;
  const bool atMarker = instruction.operation == Operation::MarkerLoad;
  const std::optional<MarkerLoads> loads =
      atMarker ? context.markerLoads(m[0], m[1]) : context.elementLoads(instruction.loadSource, m[0]);
  if (!loads) return std::numeric_limits<double>::quiet_NaN();
  const bool onJ = !atMarker && m[1] == 1;
  const int component = atMarker ? m[3] : m[2];
  const int axesMarker = atMarker ? m[2] : m[3];
  return loadComponent(onJ ? loads->forceOnJ : loads->forceOnI, onJ ? loads->torqueOnJ : loads->torqueOnI, component,
                       axesMarker, context);
}

double Expression::frictionValue(const Instruction& instruction, const ExpressionContext& context) {
  const std::optional<FrictionMeasures> measures = context.friction(instruction.markers[0]);
  if (!measures) return std::numeric_limits<double>::quiet_NaN();
  const Vector3* groups[] = {&measures->force, &measures->torque, &measures->translationalCoefficient,
                             &measures->rotationalCoefficient, &measures->slipVelocity, &measures->slipAngularVelocity};
  const int component = instruction.markers[1] - 1;
  const Vector3& vector = *groups[component / 3];
  const int rm = instruction.markers[2] < 0 ? measures->markerJ : instruction.markers[2];
  if (rm == 0) return vector[component % 3];
  return context.marker(rm).rotation.col(component % 3).dot(vector);
}

// One switch for every operation, so that the loop dispatches once per instruction. An operation finds its
// operands at a = top − operandCount, in the order they were written, and leaves its result in a[0].
double Expression::run(const Instruction* first, const Instruction* last, const ExpressionContext& context) {
  std::array<double, kStackCapacity> stack;
  double* top = stack.data();  // one past the last value
  for (const Instruction* instruction = first; instruction != last; ++instruction) {
    double* const a = top - instruction->operandCount;
    switch (instruction->operation) {
      case Operation::Constant: *top++ = instruction->constant; continue;
      case Operation::Time: *top++ = context.time(); continue;
      case Operation::Measure: *top++ = measureValue(*instruction, context); continue;
      case Operation::Variable: *top++ = context.variable(instruction->markers[0]); continue;
      case Operation::SensorValue: *top++ = context.sensorValue(instruction->markers[0]); continue;
      case Operation::Differential:
        *top++ = context.differentialState(instruction->markers[0], instruction->markers[1] != 0);
        continue;
      case Operation::Contact: *top++ = contactValue(*instruction, context); continue;
      case Operation::ElementLoad: case Operation::MarkerLoad: *top++ = loadValue(*instruction, context); continue;
      case Operation::Friction: *top++ = frictionValue(*instruction, context); continue;
      case Operation::ContactPoint:
        *top++ = context.contactPoint(static_cast<ContactPointSymbol>(instruction->markers[0]));
        continue;
      case Operation::Negate: a[0] = -a[0]; break;
      case Operation::Square: a[0] = a[0] * a[0]; break;
      case Operation::Sin: a[0] = std::sin(a[0]); break;
      case Operation::Cos: a[0] = std::cos(a[0]); break;
      case Operation::Tan: a[0] = std::tan(a[0]); break;
      case Operation::Asin: a[0] = std::asin(a[0]); break;
      case Operation::Acos: a[0] = std::acos(a[0]); break;
      case Operation::Atan: a[0] = std::atan(a[0]); break;
      case Operation::Sinh: a[0] = std::sinh(a[0]); break;
      case Operation::Cosh: a[0] = std::cosh(a[0]); break;
      case Operation::Tanh: a[0] = std::tanh(a[0]); break;
      case Operation::Sqrt: a[0] = std::sqrt(a[0]); break;
      case Operation::Exp: a[0] = std::exp(a[0]); break;
      case Operation::Log: a[0] = std::log(a[0]); break;
      case Operation::Log10: a[0] = std::log10(a[0]); break;
      case Operation::Abs: a[0] = std::fabs(a[0]); break;
      case Operation::Aint: a[0] = std::trunc(a[0]); break;
      case Operation::Anint: a[0] = std::round(a[0]); break;  // Fortran ANINT: halves away from zero, as std::round
      case Operation::Add: a[0] = a[0] + a[1]; break;
      case Operation::Subtract: a[0] = a[0] - a[1]; break;
      case Operation::Multiply: a[0] = a[0] * a[1]; break;
      case Operation::Divide: a[0] = a[0] / a[1]; break;
      case Operation::Power: a[0] = std::pow(a[0], a[1]); break;
      case Operation::Atan2: a[0] = std::atan2(a[0], a[1]); break;
      case Operation::Min: a[0] = std::min(a[0], a[1]); break;
      case Operation::Max: a[0] = std::max(a[0], a[1]); break;
      case Operation::Mod: a[0] = std::fmod(a[0], a[1]); break;  // a − AINT(a/b)·b, without rounding a/b first
      case Operation::Sign: a[0] = a[1] >= 0 ? std::fabs(a[0]) : -std::fabs(a[0]); break;
      case Operation::Step: a[0] = step(a[0], a[1], a[2], a[3], a[4]); break;
      case Operation::Step5: a[0] = step5(a[0], a[1], a[2], a[3], a[4]); break;
      case Operation::Shf: a[0] = a[2] * std::sin(a[3] * (a[0] - a[1]) - a[4]) + a[5]; break;
      case Operation::Impact: a[0] = impactFunction(a[0], a[1], a[2], a[3], a[4], a[5], a[6]).force; break;
      case Operation::Bistop: a[0] = bistopFunction(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;
      case Operation::Spline:
        a[0] = context.spline(static_cast<SplineMethod>(instruction->markers[1]), instruction->markers[0], a[0],
                              instruction->operandCount == 2 ? a[1] : 0.0, instruction->markers[2]);
        break;
      case Operation::ArrayValue:
        *top++ = context.arrayValue(instruction->markers[0], instruction->markers[1]);
        continue;
      case Operation::If: a[0] = a[0] < 0 ? a[1] : a[0] == 0 ? a[2] : a[0] > 0 ? a[3] : a[0]; break;  // NaN stays
      case Operation::Poly: a[0] = polySeries(a, instruction->operandCount); break;
      case Operation::Cheby: a[0] = chebySeries(a, instruction->operandCount); break;
      case Operation::Forcos: a[0] = fourierSeries(a, instruction->operandCount, false); break;
      case Operation::Forsin: a[0] = fourierSeries(a, instruction->operandCount, true); break;
      case Operation::Havsin: a[0] = haversineStep(a[0], a[1], a[2], a[3], a[4]); break;
      case Operation::Dim: a[0] = a[0] > a[1] ? a[0] - a[1] : 0.0; break;
    }
    top = a + 1;
  }
  return stack[0];
}

}  // namespace lodestone
