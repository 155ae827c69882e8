// The type check before a user's input file is opened.
#include "input_file.h"

#include <filesystem>
#include <system_error>

namespace lodestone {

std::optional<std::string> inputFileProblem(const std::string& path, std::string_view kind) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);  // follows links: a link to a file is a file
  switch (status.type()) {
    case fs::file_type::regular: return std::nullopt;
    case fs::file_type::not_found: return "no such file";
    case fs::file_type::directory: return "is a folder, not a " + std::string(kind);
    case fs::file_type::fifo: return "is a FIFO, not a regular file";
    case fs::file_type::socket: return "is a socket, not a regular file";
    case fs::file_type::block: return "is a block device, not a regular file";
    case fs::file_type::character: return "is a character device, not a regular file";
    default: break;
  }
  if (error) return "cannot be read (" + error.message() + ")";
  return "is not a regular file";
}

}  // namespace lodestone
