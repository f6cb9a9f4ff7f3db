#include "results_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "input_error.h"

namespace harness {

namespace fs = std::filesystem;

namespace {

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
}

std::string utc_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
  return text;
}

std::string csv_cell(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }
  return value.dump();
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(temporary + ": cannot create: " + std::strerror(errno));
  write_all(fd, text, temporary);
  ::fsync(fd);
  ::close(fd);
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    throw std::runtime_error(path + ": cannot rename into place: " + std::strerror(errno));
}

void flatten_scalars(const Json& value, const std::string& prefix,
                     std::vector<std::pair<std::string, Json>>* out) {
  if (value.is_object()) {
    for (const auto& item : value.items())
      flatten_scalars(item.value(), prefix.empty() ? item.key() : prefix + "." + item.key(), out);
  } else if (!value.is_array()) {
    out->emplace_back(prefix, value);
  }
}

ResultsStore ResultsStore::create(const std::string& base, const std::string& name) {
  const fs::path parent = fs::path(base) / name;
  std::error_code error;
  fs::create_directories(parent, error);
  if (error) throw InputError(parent.string() + ": cannot create the results folder: " + error.message());
  const std::string stamp = utc_stamp();
  for (int attempt = 0;; ++attempt) {
    const fs::path candidate = parent / (attempt == 0 ? stamp : stamp + "-" + std::to_string(attempt));
    if (fs::create_directory(candidate, error)) {
      ResultsStore store;
      store.directory_ = candidate.string();
      return store;
    }
    if (error) throw InputError(candidate.string() + ": cannot create: " + error.message());
  }
}

ResultsStore ResultsStore::open(const std::string& directory, std::vector<std::string>* warnings) {
  if (!fs::is_directory(directory))
    throw InputError(directory + ": --resume expects an existing results folder");
  ResultsStore store;
  store.directory_ = directory;
  std::ifstream file(fs::path(directory) / "trials.jsonl");
  std::string line;
  std::size_t number = 0;
  while (std::getline(file, line)) {
    ++number;
    if (line.empty()) continue;
    Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded() || !record.is_object() || !record.contains("key")) {
      warnings->push_back(directory + "/trials.jsonl:" + std::to_string(number) +
                          ": unreadable record dropped (interrupted write?); its trial runs again");
      continue;
    }
    store.records_.push_back(std::move(record));
  }
  // Rewrite without the dropped lines so the file stays valid JSON Lines.
  std::string text;
  for (const auto& record : store.records_) text += record.dump() + "\n";
  write_file_atomically((fs::path(directory) / "trials.jsonl").string(), text);
  return store;
}

std::set<std::string> ResultsStore::completed_keys() const {
  std::set<std::string> keys;
  for (const auto& record : records_) keys.insert(record["key"].get<std::string>());
  return keys;
}

void ResultsStore::append(const Json& record) {
  const std::string path = (fs::path(directory_) / "trials.jsonl").string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  write_all(fd, record.dump() + "\n", path);
  ::fsync(fd);
  ::close(fd);
  records_.push_back(record);
  write_summary();
}

void ResultsStore::write_meta(const Json& meta) const {
  write_file_atomically((fs::path(directory_) / "meta.json").string(), meta.dump(2) + "\n");
}

Json ResultsStore::read_meta() const {
  std::ifstream file(fs::path(directory_) / "meta.json");
  if (!file) return Json::object();
  Json meta = Json::parse(file, nullptr, /*allow_exceptions=*/false);
  return meta.is_discarded() ? Json::object() : meta;
}

void ResultsStore::write_summary() const {
  // Columns: the union of every record's scalar fields, in first-seen order.
  std::vector<std::string> columns;
  std::map<std::string, bool> seen;
  std::vector<std::map<std::string, Json>> rows;
  for (const auto& record : records_) {
    std::vector<std::pair<std::string, Json>> cells;
    flatten_scalars(record, "", &cells);
    std::map<std::string, Json> row;
    for (auto& [column, value] : cells) {
      if (!seen[column]) {
        seen[column] = true;
        columns.push_back(column);
      }
      row[column] = value;
    }
    rows.push_back(std::move(row));
  }
  std::ostringstream csv;
  for (std::size_t c = 0; c < columns.size(); ++c) csv << (c ? "," : "") << columns[c];
  csv << "\n";
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = row.find(columns[c]);
      csv << (c ? "," : "") << (it == row.end() ? "" : csv_cell(it->second));
    }
    csv << "\n";
  }
  write_file_atomically((fs::path(directory_) / "summary.csv").string(), csv.str());
  write_points();
}

void ResultsStore::write_points() const {
  // One row per message size of every collective trial: the table plots are made from.
  std::ostringstream csv;
  bool any = false;
  for (const auto& record : records_) {
    if (!record.contains("points") || !record["points"].is_array()) continue;
    if (!any) {
      csv << "index,key,status,backend,algorithm,world_size,dtype,op,bytes,count,time_us,min_us,"
             "p50_us,p99_us,cv,algbw_gbps,busbw_gbps,wrong\n";
      any = true;
    }
    const Json& s = record["settings"];
    const Json backend = record.value("backend", Json::object());
    for (const auto& p : record["points"]) {
      csv << record["index"] << "," << record["key"].get<std::string>() << ","
          << record["status"].get<std::string>() << "," << csv_cell(backend.value("name", Json(""))) << ","
          << csv_cell(backend.value("algorithm", Json(""))) << "," << record["world_size"] << ","
          << s["dtype"].get<std::string>() << "," << s["op"].get<std::string>();
      for (const char* field : {"bytes", "count", "time_us", "min_us", "p50_us", "p99_us", "cv",
                                "algbw_gbps", "busbw_gbps", "wrong"})
        csv << "," << csv_cell(p.value(field, Json()));
      csv << "\n";
    }
  }
  if (any) write_file_atomically((fs::path(directory_) / "points.csv").string(), csv.str());
}

}  // namespace harness
