// What a model plugin declares before it is created: the input it takes and whether it can
// run on CUDA. Apart from model.h so that the host can ask without LibTorch's headers.
#pragma once

namespace harness::plugin {

enum class InputKind { kTabular, kSequence };

inline const char* input_kind_name(InputKind kind) noexcept {
  return kind == InputKind::kTabular ? "tabular" : "sequence";
}

struct ModelCapabilities {
  // tabular: batches are [batch, features]; sequence: [batch, window, features].
  InputKind input_kind = InputKind::kTabular;
  bool cuda = true;
};

}  // namespace harness::plugin
