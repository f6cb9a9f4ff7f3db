// Enum settings: each word maps to its value and back; an unknown word is refused with the
// setting, every word it takes and the closest one, never turned into a default.
#include "spec/enum_choice.h"

#include <gtest/gtest.h>

#include "spec/train_settings.h"
#include "test_support.h"

namespace harness {
namespace {

enum class Colour { kRed, kGreen };
const EnumChoice<Colour> kColours[] = {{"red", Colour::kRed}, {"green", Colour::kGreen}};

TEST(EnumChoice, WordsAndValuesBothWays) {
  EXPECT_EQ(parse_choice("colour", "green", kColours), Colour::kGreen);
  EXPECT_STREQ(choice_word(Colour::kRed, kColours), "red");
  EXPECT_EQ(choice_words(kColours), (std::vector<std::string>{"red", "green"}));
}

TEST(EnumChoice, AnUnknownWordNamesTheSettingTheWordsAndTheClosest) {
  try {
    parse_choice("colour", "gren", kColours);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "colour: \"gren\" is not one of red, green (did you mean \"green\"?)");
  }
  EXPECT_THROW(parse_choice("colour", "", kColours), std::invalid_argument);
}

// The settings table parses the train settings' words with it.
TrainSettings train_settings_with(const Json& given) {
  return parse_train_settings(with_defaults(train_settings_schema(), given));
}

TEST(EnumChoice, TheTrainSettingsUseIt) {
  EXPECT_EQ(train_settings_with({{"compression", "bf16"}}).compression, Compression::kBf16);
  EXPECT_EQ(train_settings_with({{"lr_rule", "sqrt"}}).lr_rule, LrRule::kSqrt);
  EXPECT_STREQ(compression_name(Compression::kFp16), "fp16");
  try {
    train_settings_with({{"lr_rule", "sqr"}});
    FAIL() << "no exception";
  } catch (const std::exception& e) {
    EXPECT_CONTAINS(std::string(e.what()), "lr_rule: \"sqr\" is not one of none, linear, sqrt");
  }
}

}  // namespace
}  // namespace harness
