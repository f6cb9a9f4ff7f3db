#include "results/folder_links.h"

#include <filesystem>
#include <system_error>

#include "common/input_error.h"

namespace harness {

void refuse_links_in(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code error;
  // Symbolic links are listed, never followed (the iterator's default).
  for (fs::recursive_directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_symlink(error)) continue;
    const fs::path target = fs::read_symlink(it->path(), error);
    throw InputError(it->path().string() + ": is a symbolic link (to " + target.string() +
                     "); the harness writes only files inside the results folder and follows "
                     "no link, so that nothing outside it is overwritten. Replace the link by "
                     "the file itself (cp --remove-destination TARGET LINK) or remove it, and "
                     "resume again");
  }
}

}  // namespace harness
