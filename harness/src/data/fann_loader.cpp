// FANN training-data text format: a header "rows inputs outputs", then for each row a line
// of inputs and a line of outputs. For the thyroid set the outputs are one-hot over three
// classes; the last class is "normal", the other two are the anomalies (annthyroid).
#include "data/loaders.h"
#include "data/text_file_reader.h"

namespace harness {

TabularData load_fann(const std::string& path) {
  TextFileReader reader(path);
  std::string line;
  if (!reader.next(&line)) throw InputError(path + ": the file is empty (expected a FANN header)");
  const auto header = split_blanks(line);
  if (header.size() != 3)
    reader.fail("expected a header \"rows inputs outputs\", got \"" + line + "\"");
  // Bounded: a huge width would be allocated before any row is read.
  const std::size_t rows = reader.whole_number(header[0], 0, 1e9, "the number of rows");
  const std::size_t inputs = reader.whole_number(header[1], 1, 1e5, "the number of inputs");
  const std::size_t outputs = reader.whole_number(header[2], 2, 1e3, "the number of outputs");
  if (inputs == 0 || outputs == 0) reader.fail("header declares no inputs or no outputs");

  TabularData data;
  data.cols = inputs;
  std::vector<float> row(inputs);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t part = 0; part < 2; ++part) {
      const std::size_t expected = part == 0 ? inputs : outputs;
      if (!reader.next(&line))
        reader.fail("file ends after " + std::to_string(r) + " of " + std::to_string(rows) +
                    " rows declared in the header");
      const auto tokens = split_blanks(line);
      if (tokens.size() != expected)
        reader.fail("expected " + std::to_string(expected) + (part == 0 ? " inputs" : " outputs") +
                    ", got " + std::to_string(tokens.size()));
      if (part == 0) {
        for (std::size_t c = 0; c < inputs; ++c) row[c] = reader.number(tokens[c], c);
      } else {
        const float normal_class = reader.number(tokens.back(), outputs - 1);
        data.append_row(row, normal_class > 0.5f ? 0 : 1);
      }
    }
  }
  return data;
}

}  // namespace harness
