// Problems found in a deck are collected, not thrown one by one: the reader reports every one of them,
// then the command fails once.
#pragma once

#include <string>
#include <vector>

#include "source_loc.h"

namespace lodestone {

enum class Severity { Warning, Error };

struct Diagnostic {
  Severity severity;
  SourceLoc where;
  std::string message;

  // "deck.xml:12:3: Body_Rigid id=2: mass must be > 0 (got -1)"; warnings carry "warning: " after the position.
  std::string format() const;
};

class Diagnostics {
 public:
  void error(const SourceLoc& where, std::string message);
  void warning(const SourceLoc& where, std::string message);
  // Adds every diagnostic of `other` after these, in its order.
  void append(const Diagnostics& other);

  bool hasErrors() const { return errorCount_ > 0; }
  int errorCount() const { return errorCount_; }
  int warningCount() const { return static_cast<int>(entries_.size()) - errorCount_; }
  const std::vector<Diagnostic>& entries() const { return entries_; }

  // Orders the diagnostics from index `first` on by file position (those without a line first), keeping the
  // found order among equals, so a deck's problems read top to bottom.
  void sortByPosition(size_t first = 0);
  size_t size() const { return entries_.size(); }

  // Every diagnostic, one per line, in the current order.
  std::string formatAll() const;

 private:
  std::vector<Diagnostic> entries_;
  int errorCount_ = 0;
};

}  // namespace lodestone
