// Data sets loaded once per process and shared by the trials that use them.
#pragma once

#include <map>
#include <string>

#include "data/dataset_loader.h"

namespace harness {

class DataCache {
 public:
  // shapes_only (--dry-run): synthetic data sets are validated and shaped, not generated.
  explicit DataCache(bool shapes_only = false) : shapes_only_(shapes_only) {}

  const DataSplit& get(const DatasetSettings& dataset, bool normal_only) {
    const std::string key = dataset_identity(dataset) + (normal_only ? "|normal" : "|all");
    auto it = splits_.find(key);
    if (it == splits_.end())
      it = splits_
               .emplace(key, shapes_only_ ? dataset_shape(dataset, normal_only)
                                          : load_dataset(dataset, normal_only))
               .first;
    return it->second;
  }

 private:
  bool shapes_only_;
  std::map<std::string, DataSplit> splits_;
};

}  // namespace harness
