#include "collective/collective_validation.h"

#include "trial/plugin_validation.h"

namespace harness {

void validate_collective_trial(const CollectiveSettings& settings, ValidationContext& context) {
  check_backend(context, settings.backend, settings.backend_params);
}

}  // namespace harness
