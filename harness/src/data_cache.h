// Data sets loaded once per process and shared by the trials that use them.
#pragma once

#include <map>
#include <string>

#include "json.h"
#include "tabular_data.h"

namespace harness {

class DataCache {
 public:
  const DataSplit& get(const Json& dataset, const std::string& train_on) {
    const std::string key = dataset.dump() + "|" + train_on;
    auto it = splits_.find(key);
    if (it == splits_.end()) it = splits_.emplace(key, load_dataset(dataset, train_on)).first;
    return it->second;
  }

 private:
  std::map<std::string, DataSplit> splits_;
};

}  // namespace harness
