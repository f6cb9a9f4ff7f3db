# The host's components depend downwards only: a file in harness/src/<component>/ includes
# only its own component's headers and those of components listed before it in
# HARNESS_COMPONENTS (harness/CMakeLists.txt), and only train/, collective/ and replay/ include
# LibTorch. docs/architecture.md draws the same graph.
source "$(dirname "$0")/lib.bash"

py harness <<'PY'
import os, re, sys
root = sys.argv[1]
order = re.search(r"set\(HARNESS_COMPONENTS ([^)]*)\)", open(os.path.join(root, "CMakeLists.txt")).read()).group(1).split()
rank = {c: i for i, c in enumerate(order)}
torch_allowed = {"train", "collective", "replay"}
problems, edges = [], set()
for component in order:
    folder = os.path.join(root, "src", component)
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".h", ".cpp")):
            continue
        text = open(os.path.join(folder, name)).read()
        for target in re.findall(r'#include "([a-z_]+)/[^"]+"', text):
            if target == "harness":
                continue  # the plugin API
            if target not in rank:
                problems.append(f"{component}/{name}: includes unknown component {target}")
            elif rank[target] > rank[component]:
                problems.append(f"{component}/{name}: includes {target}/ (upward: {target} comes after {component})")
            elif target != component:
                edges.add((component, target))
        torch = re.search(r'#include (<(torch|ATen|c10)/|"harness/plugin/(model|module_model)\.h")', text)
        if component not in torch_allowed and torch:
            problems.append(f"{component}/{name}: includes LibTorch outside train/, collective/ and replay/")
print("components:", " -> ".join(order))
print(len(edges), "dependency edges, all downward")
if problems:
    print("\n".join(problems))
    sys.exit(1)
PY
echo PASS
