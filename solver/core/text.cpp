// Case folding and strict number parsing for deck values.
#include "text.h"

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

}  // namespace lodestone
