// Starting Xerces-C for the deck reader (see xerces_setup.cpp for how it is linked and why).
#pragma once

namespace lodestone {

// Initialises Xerces-C once per process, before any parser exists. URLs are refused: decks read local files only.
void initialiseXerces();

}  // namespace lodestone
