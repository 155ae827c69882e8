// Where a run's results go when the user names no folder: beside the deck, named after it.
#pragma once

#include <string>

namespace lodestone {

// "models/brick.xml" → "models/brick_results"; copy 2 → "models/brick-2_results" (for a batch holding two decks
// of the same name).
std::string defaultResultsFolder(const std::string& deckPath, int copy = 1);

}  // namespace lodestone
