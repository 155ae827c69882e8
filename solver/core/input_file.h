// Files a user names as input (decks, mesh files): their type is checked before they are opened, so that a name
// that leads somewhere else than to a file is refused with a reason instead of blocking or failing oddly.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lodestone {

// Why the file at `path` cannot be read as `kind` ("deck file", "mesh file"), or nothing when it is a regular file
// (or a link to one): "no such file", "is a folder, not a mesh file", "is a FIFO, not a regular file". Anything but a
// regular file is refused before it is opened: opening a FIFO waits for a writer for ever, and reading a device
// may never end.
std::optional<std::string> inputFileProblem(const std::string& path, std::string_view kind);

}  // namespace lodestone
