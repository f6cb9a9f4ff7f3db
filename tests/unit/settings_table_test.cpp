// A setting is one declaration: adding a row (and the field it fills) is all it takes for the
// setting to be validated, defaulted, documented and parsed; the default is the struct's.
#include "spec/settings_table.h"

#include <gtest/gtest.h>

#include "spec/train_settings.h"

namespace harness {
namespace {

enum class Flavour { kPlain, kSalted };
const EnumChoice<Flavour> kFlavours[] = {{"plain", Flavour::kPlain}, {"salted", Flavour::kSalted}};

struct Inner {
  double ratio = 0.25;
};

struct Toy {
  int count = 7;
  std::optional<double> target;
  Flavour flavour = Flavour::kSalted;
  Inner inner;
  std::vector<std::uint64_t> sizes;
};

const SettingsTable<Toy>& toy_table() {
  static const auto inner =
      SettingsTable<Inner>().add("ratio", &Inner::ratio, "a share", {0, 1, true});
  static const auto table = SettingsTable<Toy>()
                                .add("count", &Toy::count, "how many", {1, 10})
                                .add("target", &Toy::target, "stop here", {0, 5})
                                .add_choice("flavour", &Toy::flavour, kFlavours, "which one")
                                .add_part("inner", &Toy::inner, inner)
                                .add("sizes", &Toy::sizes, "explicit sizes", {1, 100});
  return table;
}

std::vector<std::string> validation_errors(const Json& value) {
  ErrorList errors;
  validate_object(toy_table().schema(), "", value, "/settings", true, errors);
  return errors.messages();
}

TEST(SettingsTable, TheDefaultsAreTheStructsMemberInitialisers) {
  const Json filled = with_defaults(toy_table().schema(), Json::object());
  EXPECT_EQ(filled.at("count"), 7);
  EXPECT_TRUE(filled.at("target").is_null());
  EXPECT_EQ(filled.at("flavour"), "salted");
  EXPECT_DOUBLE_EQ(filled.at("inner").at("ratio").get<double>(), 0.25);
  EXPECT_EQ(filled.at("sizes"), Json::array());
}

TEST(SettingsTable, ParsesEveryRowIntoItsTypedField) {
  Json user = {{"count", 3},
               {"target", 1.5},
               {"flavour", "plain"},
               {"inner", {{"ratio", 0.5}}},
               {"sizes", {4, 8}}};
  const Toy toy = toy_table().parse(with_defaults(toy_table().schema(), user));
  EXPECT_EQ(toy.count, 3);
  ASSERT_TRUE(toy.target.has_value());
  EXPECT_DOUBLE_EQ(*toy.target, 1.5);
  EXPECT_EQ(toy.flavour, Flavour::kPlain);
  EXPECT_DOUBLE_EQ(toy.inner.ratio, 0.5);
  EXPECT_EQ(toy.sizes, (std::vector<std::uint64_t>{4, 8}));
  EXPECT_EQ(toy_table().to_json(toy), with_defaults(toy_table().schema(), user));
}

TEST(SettingsTable, ValidatesRangesTypesAndWordsNamingTheField) {
  EXPECT_TRUE(validation_errors(Json::object()).empty());
  const auto errors = validation_errors(
      {{"count", 11}, {"flavour", "salty"}, {"inner", {{"ratio", 0}}}, {"target", "x"}});
  ASSERT_EQ(errors.size(), 4u);
  const std::string all = errors[0] + errors[1] + errors[2] + errors[3];
  EXPECT_NE(all.find("/settings/count"), std::string::npos) << all;
  EXPECT_NE(all.find("[1, 10]"), std::string::npos) << all;
  EXPECT_NE(all.find("/settings/flavour"), std::string::npos) << all;
  EXPECT_NE(all.find("salted"), std::string::npos) << all;
  EXPECT_NE(all.find("/settings/inner/ratio"), std::string::npos) << all;
  EXPECT_NE(all.find("/settings/target"), std::string::npos) << all;
}

TEST(SettingsTable, DocumentsEveryRowWithItsDefaultAndHelp) {
  const std::string reference = schema_reference_markdown(toy_table().schema());
  EXPECT_NE(reference.find("`count`"), std::string::npos) << reference;
  EXPECT_NE(reference.find("how many"), std::string::npos) << reference;
  EXPECT_NE(reference.find("`inner.ratio`"), std::string::npos) << reference;
  EXPECT_NE(reference.find("`7`"), std::string::npos) << reference;
  EXPECT_NE(reference.find("\"plain\""), std::string::npos) << reference;
}

TEST(SettingsTable, AWordTheTableDoesNotKnowIsRefusedNeverDefaulted) {
  Json filled = with_defaults(toy_table().schema(), Json::object());
  filled["flavour"] = "salty";
  try {
    toy_table().parse(filled);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("flavour: \"salty\" is not one of plain, salted"),
              std::string::npos)
        << e.what();
  }
}

// The shipped tables: the schema's defaults and a default-constructed struct agree, because
// the schema reads them from it.
TEST(SettingsTable, TrainDefaultsComeFromTheStruct) {
  const TrainSettings parsed =
      parse_train_settings(with_defaults(train_settings_schema(), Json::object()));
  const TrainSettings fresh;
  EXPECT_EQ(parsed.fusion_bytes, fresh.fusion_bytes);
  EXPECT_EQ(parsed.batch_size, fresh.batch_size);
  EXPECT_EQ(parsed.dataset.window, fresh.dataset.window);
  EXPECT_DOUBLE_EQ(parsed.quiet.max_slowdown, fresh.quiet.max_slowdown);
  EXPECT_EQ(parsed.optimizer.kind, fresh.optimizer.kind);
  EXPECT_EQ(dataset_identity(parsed.dataset), dataset_identity(fresh.dataset));
}

}  // namespace
}  // namespace harness
