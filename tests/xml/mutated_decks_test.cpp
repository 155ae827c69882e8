// Damaged copies of every deck in models/, read and built in-process: whatever the damage (a value replaced by
// NaN or a huge number, an id swapped for another, an attribute or a line lost, a line repeated or moved, the
// file cut short, a byte changed), the reader and the model builder must answer with diagnostics, never a crash
// or an exception, and every error must name the deck and, except the few about the deck as a whole, its line.
//
// The mutations are seeded, so every run reads the same decks; under the sanitizer build this is also a check
// that no damaged deck reads memory it should not. A failing mutant is written to test_output/ to reproduce with
// `lodestone check`.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "elements/model_builder.h"
#include "solver/xml/deck_reader.h"

namespace lodestone::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kMutantsPerDeck = 40;

// Values an exporter or a hand edit could leave behind, valid or not.
const std::vector<std::string> kOddValues = {
    "nan", "inf", "-inf", "1e999", "1e-320", "-0", "0", "", " ", "1,2", "0x10", "1e", "--1",
    "99999999999999999999", "2147483648", "-2147483649", "-1", "3.5", "TRUE", "abc", "1 2 3", "7", "&amp;"};

// Every quoted attribute value in the text: offset and length of what is between the quotes.
struct Span {
  size_t begin, length;
};

std::vector<Span> attributeValues(const std::string& text) {
  std::vector<Span> values;
  for (size_t at = text.find("=\""); at != std::string::npos; at = text.find("=\"", at + 1)) {
    const size_t end = text.find('"', at + 2);
    if (end == std::string::npos) break;
    values.push_back({at + 2, end - at - 2});
  }
  return values;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

class Mutator {
 public:
  explicit Mutator(uint32_t seed) : random_(seed) {}

  std::string mutate(std::string text) {
    const size_t edits = 1 + below(3);
    for (size_t k = 0; k < edits && !text.empty(); ++k) text = mutateOnce(std::move(text));
    return text;
  }

 private:
  // Not std::uniform_int_distribution: its output may differ between standard libraries, and the mutants
  // should be the same everywhere.
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(random_() % n); }

  std::string mutateOnce(std::string text) {
    const std::vector<Span> values = attributeValues(text);
    std::vector<std::string> lines = splitLines(text);
    switch (below(8)) {
      case 0:  // a value replaced by an odd one
        if (values.empty()) return text;
        {
          const Span value = values[below(values.size())];
          return text.replace(value.begin, value.length, kOddValues[below(kOddValues.size())]);
        }
      case 1:  // a value replaced by another value of the deck: ids point at the wrong element kind
        if (values.size() < 2) return text;
        {
          const Span from = values[below(values.size())], to = values[below(values.size())];
          return text.replace(to.begin, to.length, text.substr(from.begin, from.length));
        }
      case 2:  // an attribute lost
        if (values.empty()) return text;
        {
          const Span value = values[below(values.size())];
          size_t nameBegin = value.begin - 2;
          while (nameBegin > 0 && text[nameBegin - 1] != ' ' && text[nameBegin - 1] != '\n') --nameBegin;
          return text.erase(nameBegin, value.begin + value.length + 1 - nameBegin);
        }
      case 3:  // a line repeated somewhere else
        lines.insert(lines.begin() + static_cast<long>(below(lines.size() + 1)), lines[below(lines.size())]);
        return joinLines(lines);
      case 4:  // a line lost
        lines.erase(lines.begin() + static_cast<long>(below(lines.size())));
        return joinLines(lines);
      case 5:  // two lines swapped
        std::swap(lines[below(lines.size())], lines[below(lines.size())]);
        return joinLines(lines);
      case 6:  // cut short
        return text.substr(0, below(text.size() + 1));
      default:  // a byte changed
        text[below(text.size())] = static_cast<char>(1 + below(255));
        return text;
    }
  }

  std::mt19937 random_;
};

// Errors about the deck as a whole, which no single line holds.
bool isAboutTheWholeDeck(const Diagnostic& diagnostic) {
  for (const char* text : {"the deck has no Simulate command", "the file is empty", "malformed XML"}) {
    if (diagnostic.message.find(text) != std::string::npos) return true;
  }
  return false;
}

std::vector<fs::path> modelDecks() {
  std::vector<fs::path> decks;
  for (const char* folder : {"/models", "/models/usersub"}) {
    for (const auto& entry : fs::directory_iterator(std::string(LODESTONE_SOURCE_DIR) + folder)) {
      if (entry.path().extension() == ".xml") decks.push_back(entry.path());
    }
  }
  std::sort(decks.begin(), decks.end());
  return decks;
}

std::string readFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// Keeps a mutant that failed, beside the other tests' outputs, and says where.
std::string keepMutant(const std::string& text, const std::string& name) {
  const fs::path folder = fs::path(LODESTONE_BINARY_DIR) / "test_output" / "mutated_decks";
  fs::create_directories(folder);
  const fs::path path = folder / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

TEST(MutatedDecks, EveryDamagedDeckGetsDiagnosticsNeverACrash) {
  const std::vector<fs::path> decks = modelDecks();
  ASSERT_GE(decks.size(), 20u) << "the models/ decks are the seeds";
  int withErrors = 0, total = 0;
  for (size_t d = 0; d < decks.size(); ++d) {
    const std::string original = readFile(decks[d]);
    // The deck's own path as the name, so that mesh files and scripts resolve as they would for the original.
    const std::string displayName = decks[d].string();
    Mutator mutator(static_cast<uint32_t>(1000 + d));
    for (int k = 0; k < kMutantsPerDeck; ++k, ++total) {
      const std::string mutant = mutator.mutate(original);
      const std::string name = decks[d].stem().string() + "_mutant" + std::to_string(k) + ".xml";
      Diagnostics diagnostics;
      try {
        std::optional<ModelSpec> spec = readDeckText(mutant, displayName, diagnostics);
        if (spec) (void)buildModel(*spec, diagnostics);
      } catch (const std::exception& error) {
        ADD_FAILURE() << "exception escaped: " << error.what() << "\n  mutant: " << keepMutant(mutant, name);
        continue;
      }
      if (diagnostics.errorCount() > 0) ++withErrors;
      for (const Diagnostic& diagnostic : diagnostics.entries()) {
        if (diagnostic.severity != Severity::Error) continue;
        EXPECT_EQ(diagnostic.where.file, displayName) << diagnostic.format();
        if (diagnostic.where.line <= 0 && !isAboutTheWholeDeck(diagnostic)) {
          ADD_FAILURE() << "error without a line: " << diagnostic.format()
                        << "\n  mutant: " << keepMutant(mutant, name);
        }
      }
    }
  }
  // Most damage must be noticed: a reader that accepted everything would pass the checks above.
  EXPECT_GT(withErrors, total / 2) << withErrors << " of " << total << " mutants had errors";
}

}  // namespace
}  // namespace lodestone::testing
