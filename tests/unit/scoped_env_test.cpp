// ScopedEnv: what the nccl plugin uses so that one trial's NCCL_ALGO/NCCL_PROTO never leaks
// into the next trial.
#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/plugin/scoped_env.h"

namespace harness {
namespace {

TEST(ScopedEnv, SetsForItsLifetimeAndUnsetsAfter) {
  ::unsetenv("HARNESS_SCOPED_ENV_TEST");
  {
    const plugin::ScopedEnv env("HARNESS_SCOPED_ENV_TEST", "ring");
    ASSERT_NE(std::getenv("HARNESS_SCOPED_ENV_TEST"), nullptr);
    EXPECT_STREQ(std::getenv("HARNESS_SCOPED_ENV_TEST"), "ring");
  }
  EXPECT_EQ(std::getenv("HARNESS_SCOPED_ENV_TEST"), nullptr);
}

TEST(ScopedEnv, RestoresTheUsersValueAndIgnoresEmpty) {
  ::setenv("HARNESS_SCOPED_ENV_TEST", "tree", 1);
  {
    const plugin::ScopedEnv env("HARNESS_SCOPED_ENV_TEST", "ring");
    EXPECT_STREQ(std::getenv("HARNESS_SCOPED_ENV_TEST"), "ring");
  }
  EXPECT_STREQ(std::getenv("HARNESS_SCOPED_ENV_TEST"), "tree");
  {
    const plugin::ScopedEnv unchanged("HARNESS_SCOPED_ENV_TEST", "");
    EXPECT_STREQ(std::getenv("HARNESS_SCOPED_ENV_TEST"), "tree");
  }
  EXPECT_STREQ(std::getenv("HARNESS_SCOPED_ENV_TEST"), "tree");
  ::unsetenv("HARNESS_SCOPED_ENV_TEST");
}

}  // namespace
}  // namespace harness
