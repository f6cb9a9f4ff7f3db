// A setting whose value is one of a fixed set of words, turned into its enum in one place: a
// table of (word, value) per enum, one lookup that never defaults (an unknown word names the
// setting, the words it takes and the closest one), and the way back for records.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "spec/did_you_mean.h"

namespace harness {

template <class Enum>
struct EnumChoice {
  const char* word;
  Enum value;
};

template <class Enum, std::size_t N>
std::vector<std::string> choice_words(const EnumChoice<Enum> (&choices)[N]) {
  std::vector<std::string> words;
  for (const auto& choice : choices) words.emplace_back(choice.word);
  return words;
}

// Throws std::invalid_argument: `lr_rule: "cubic" is not one of none, linear, sqrt`.
template <class Enum, std::size_t N>
Enum parse_choice(const std::string& setting, const std::string& word,
                  const EnumChoice<Enum> (&choices)[N]) {
  for (const auto& choice : choices)
    if (word == choice.word) return choice.value;
  const std::vector<std::string> words = choice_words(choices);
  std::string listed;
  for (const auto& w : words) listed += (listed.empty() ? "" : ", ") + w;
  throw std::invalid_argument(setting + ": \"" + word + "\" is not one of " + listed +
                              did_you_mean(word, words));
}

template <class Enum, std::size_t N>
const char* choice_word(Enum value, const EnumChoice<Enum> (&choices)[N]) {
  for (const auto& choice : choices)
    if (value == choice.value) return choice.word;
  return "?";
}

}  // namespace harness
