// What a model plugin declares before it is created: the input it takes and whether it can
// run on CUDA. Apart from model.h so that the host can ask without LibTorch's headers.
#pragma once

namespace harness::plugin {

// kAny: the model takes whatever the data set gives (a TorchScript module); the host checks
// with one forward on a batch of the data set's shape.
enum class InputKind { kTabular, kSequence, kAny };

inline const char* input_kind_name(InputKind kind) noexcept {
  switch (kind) {
    case InputKind::kTabular: return "tabular";
    case InputKind::kSequence: return "sequence";
    case InputKind::kAny: return "any";
  }
  return "unknown";
}

struct ModelCapabilities {
  // tabular: batches are [batch, features]; sequence: [batch, window, features]; any: either.
  InputKind input_kind = InputKind::kTabular;
  bool cuda = true;
};

}  // namespace harness::plugin
