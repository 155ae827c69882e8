// Writing contacts.csv with shortest round-trip numbers, in the columns of contactsTable().
#include "contact_results_writer.h"

#include "result_tables.h"

namespace lodestone {

ContactResultsWriter::ContactResultsWriter(const std::filesystem::path& path)
    : file_(path, csvHeader(contactsTable()).c_str()) {}

void ContactResultsWriter::write(double time, std::span<const PairReport> pairs) {
  buffer_.clear();
  for (const PairReport& pair : pairs) appendCsvRow(contactsTable(), ContactRow{time, pair}, buffer_);
  file_.append(buffer_);
}

}  // namespace lodestone
