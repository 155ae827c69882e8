// Case folding and strict number parsing for deck values.
#include "text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <cstdlib>

namespace lodestone {

std::string toUpper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string toLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string_view trim(std::string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

std::vector<std::string> splitList(std::string_view text) {
  std::vector<std::string> items;
  std::string current;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!current.empty()) items.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) items.push_back(std::move(current));
  return items;
}

std::optional<double> parseReal(std::string_view text) {
  std::string value(trim(text));
  if (value.empty()) return std::nullopt;
  for (char& c : value) {
    if (c == 'd' || c == 'D') c = 'e';
  }
  // strtod accepts "nan", "inf" and hex floats; a deck value is a plain decimal number.
  for (char c : value) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
      return std::nullopt;
    }
  }
  char* end = nullptr;
  const double parsed = std::strtod(value.c_str(), &end);
  if (end != value.c_str() + value.size()) return std::nullopt;
  if (!std::isfinite(parsed)) return std::nullopt;
  return parsed;
}

std::optional<long> parseInteger(std::string_view text) {
  std::string_view value = trim(text);
  if (!value.empty() && value.front() == '+') value.remove_prefix(1);
  long parsed = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size() || value.empty()) {
    // Exporters sometimes write integers as "5." or "5.0".
    const std::optional<double> real = parseReal(value);
    if (real && std::floor(*real) == *real && std::fabs(*real) < 9.0e15) return static_cast<long>(*real);
    return std::nullopt;
  }
  return parsed;
}

std::optional<bool> parseBoolean(std::string_view text) {
  const std::string value = toUpper(trim(text));
  if (value == "TRUE" || value == "YES" || value == "1" || value == "T" || value == "ON") return true;
  if (value == "FALSE" || value == "NO" || value == "0" || value == "F" || value == "OFF") return false;
  return std::nullopt;
}

void appendReal(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::string formatSignificant(double value, int digits) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

std::string formatReal(double value) {
  std::string text;
  appendReal(text, value);
  return text;
}

int editDistance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein's three rows plus the one before, for swaps of neighbours.
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  const size_t columns = b.size() + 1;
  std::vector<int> beforePrevious(columns), previous(columns), current(columns);
  for (size_t j = 0; j < columns; ++j) previous[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<int>(i);
    for (size_t j = 1; j < columns; ++j) {
      const int substitution = previous[j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1])) {
        current[j] = std::min(current[j], beforePrevious[j - 2] + 1);
      }
    }
    beforePrevious.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

std::vector<std::string> nearestNames(std::string_view given, const std::vector<std::string>& candidates) {
  const int allowed = given.size() <= 4 ? 1 : given.size() <= 8 ? 2 : 3;
  int best = allowed;
  std::vector<std::string> nearest;
  for (const std::string& candidate : candidates) {
    const int distance = editDistance(given, candidate);
    if (distance > best) continue;
    if (distance < best) nearest.clear();
    best = distance;
    if (std::find(nearest.begin(), nearest.end(), candidate) == nearest.end()) nearest.push_back(candidate);
  }
  return nearest;
}

std::string listAlternatives(const std::vector<std::string>& names, std::string_view open, std::string_view close) {
  std::string text;
  for (size_t k = 0; k < names.size(); ++k) {
    text += std::string(k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + std::string(open) + names[k] +
            std::string(close);
  }
  return text;
}

}  // namespace lodestone
