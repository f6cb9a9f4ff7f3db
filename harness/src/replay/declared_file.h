// A file scripts/tune writes, checked against its one declaration (file_formats.json in the tune
// package, compiled in as harness/tune/file_formats.h), with the words its Python reader uses:
// every declared field present unless optional, of its type, choices and range; arrays of their
// declared elements; a newer version refused; a field an older version lacked given the value
// it stood for then.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"

namespace harness {

// `name` is a file of the declaration ("job"). Returns the document with the fields of later
// versions filled in; throws InputError "<path>: field \"steps[2].ready_s\" ..." otherwise.
Json checked_declared_file(const Json& document, const std::string& name, const std::string& path);

// The declaration's choices for a field of one of its objects ("parameter", "dtype").
std::vector<std::string> declared_choices(const std::string& object, const std::string& field);

}  // namespace harness
