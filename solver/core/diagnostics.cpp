// Formatting of deck diagnostics: file:line:col, then the element, then what is wrong.
#include "diagnostics.h"

#include <algorithm>
#include <tuple>

namespace lodestone {

std::string SourceLoc::position() const {
  std::string text = file.empty() ? std::string("<deck>") : file;
  if (line > 0) {
    text += ":" + std::to_string(line);
    if (column > 0) text += ":" + std::to_string(column);
  }
  return text;
}

std::string SourceLoc::subject() const {
  std::string text = element;
  if (id) text += (text.empty() ? "id=" : " id=") + std::to_string(*id);
  return text;
}

std::string Diagnostic::format() const {
  std::string text = where.position() + ": ";
  if (severity == Severity::Warning) text += "warning: ";
  const std::string subject = where.subject();
  if (!subject.empty()) text += subject + ": ";
  return text + message;
}

void Diagnostics::error(const SourceLoc& where, std::string message) {
  entries_.push_back({Severity::Error, where, std::move(message)});
  ++errorCount_;
}

void Diagnostics::warning(const SourceLoc& where, std::string message) {
  entries_.push_back({Severity::Warning, where, std::move(message)});
}

void Diagnostics::append(const Diagnostics& other) {
  entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
  errorCount_ += other.errorCount_;
}

void Diagnostics::sortByPosition(size_t first) {
  first = std::min(first, entries_.size());
  std::stable_sort(entries_.begin() + static_cast<std::ptrdiff_t>(first), entries_.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.where.file, a.where.line, a.where.column) <
                            std::tie(b.where.file, b.where.line, b.where.column);
                   });
}

std::string Diagnostics::formatAll() const {
  std::string text;
  for (const Diagnostic& entry : entries_) text += entry.format() + "\n";
  return text;
}

}  // namespace lodestone
