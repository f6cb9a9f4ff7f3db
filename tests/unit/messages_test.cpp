// What messages echo: cut, escaped, one line; what data files may hold.
#include <gtest/gtest.h>

#include "common/brief.h"
#include "common/failure_text.h"
#include "common/input_error.h"
#include "data/text_file_reader.h"
#include "test_support.h"

namespace harness {
namespace {

TEST(Messages, ControlCharactersAreEscapedAndCutsKeepUtf8Whole) {
  EXPECT_EQ(brief(std::string("a\x1b[31mb")), "a\\x1b[31mb");
  EXPECT_EQ(brief(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("line one\nline\ttwo"), "line one\nline\\x09two");
  // 'é' is two bytes: a cut after 3 bytes would split it.
  EXPECT_EQ(brief("abé" + std::string(100, 'x'), 3), "ab... (104 characters)");
  const InputError error(std::string("key \"a\0b\"", 9));
  EXPECT_STREQ(error.what(), "key \"a\\x00b\"");
}

TEST(Messages, HugeWordsAreCutOnceWhateverTheNumberOfPasses) {
  const std::string message = "unknown key \"" + std::string(5000, 'a') + "\" (did you mean x?)";
  const std::string once = cut_long_words(message, 40);
  EXPECT_EQ(once,
            "unknown key \"" + std::string(36, 'a') + "... (5002 characters) (did you mean x?)");
  EXPECT_EQ(cut_long_words(once, 40), once);
  EXPECT_EQ(InputError(InputError(message).what()).what(), std::string(InputError(message).what()));
}

TEST(Messages, FailureTextKeepsTheFirstLineAndExplainsAllocationFailures) {
  EXPECT_EQ(failure_text("bad thing\nframe #0: <unknown>\nframe #1: more"), "bad thing");
  const std::string libtorch =
      "[enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate "
      "memory: you tried to allocate 4398046511104 bytes. Error code 12 (Cannot allocate "
      "memory)\nframe #0: c10::ThrowEnforceNotMet";
  EXPECT_CONTAINS(failure_text(libtorch), "out of memory: LibTorch could not allocate 4398.0 GB");
  EXPECT_EQ(failure_text(libtorch).find("frame"), std::string::npos);
}

TEST(Messages, DataFilesHoldDecimalNumbersOnly) {
  for (const char* good : {"1", "-2.5", "+.5", "3.", "1e-3", "2E+10"})
    EXPECT_TRUE(is_decimal_number(good)) << good;
  for (const char* bad : {"0x10", "0x1p3", "inf", "nan", "", ".", "1e", "1.2.3", "e5", "- 1"})
    EXPECT_FALSE(is_decimal_number(bad)) << bad;
}

}  // namespace
}  // namespace harness
