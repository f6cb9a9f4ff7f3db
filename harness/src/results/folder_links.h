// A results folder's files are the harness's own: a symbolic link planted in it (trials.jsonl,
// meta.json, a .tmp, traces/) would make --resume write or append to a file outside the
// folder. Such a folder is refused, naming the link; every writer also opens its file with
// O_NOFOLLOW (results/file_writing.h), so a link made while a job runs is not followed either.
#pragma once

#include <string>

namespace harness {

// InputError naming the first symbolic link found in `directory` or below it (the folder
// itself may be reached through a link: that is the user's own path to it).
void refuse_links_in(const std::string& directory);

}  // namespace harness
