# The host's components depend downwards only: a file in harness/src/<component>/ includes
# only its own component's headers and those of components listed before it in
# HARNESS_COMPONENTS (harness/CMakeLists.txt), and only measurement/ and the trial kinds above
# it include LibTorch. The three trial kinds (train/, collective/, replay/) stand side by side on
# measurement/: none includes another. docs/architecture.md lists the same components in the
# same order.
source "$(dirname "$0")/lib.bash"

py harness <<'PY'
import os, re, sys
root = sys.argv[1]
order = re.search(r"set\(HARNESS_COMPONENTS ([^)]*)\)", open(os.path.join(root, "CMakeLists.txt")).read()).group(1).split()
rank = {c: i for i, c in enumerate(order)}
trial_kinds = {"train", "collective", "replay"}
torch_allowed = trial_kinds | {"measurement"}
problems, edges = [], set()
for component in order:
    folder = os.path.join(root, "src", component)
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".h", ".cpp")):
            continue
        text = open(os.path.join(folder, name)).read()
        for target in re.findall(r'#include "([a-z_]+)/[^"]+"', text):
            if target == "harness":
                continue  # the plugin API, and the tune files' declaration (harness/tune/)
            if target not in rank:
                problems.append(f"{component}/{name}: includes unknown component {target}")
            elif rank[target] > rank[component]:
                problems.append(f"{component}/{name}: includes {target}/ (upward: {target} comes after {component})")
            elif target != component:
                edges.add((component, target))
                if component in trial_kinds and target in trial_kinds:
                    problems.append(f"{component}/{name}: includes {target}/ (the trial kinds stand side by side on measurement/)")
        torch = re.search(r'#include (<(torch|ATen|c10)/|"harness/plugin/(model|module_model)\.h")', text)
        if component not in torch_allowed and torch:
            problems.append(f"{component}/{name}: includes LibTorch outside measurement/ and the trial kinds")
documented = re.findall(r"^\| `([a-z_]+)/` \|", open(os.path.join(root, "..", "docs", "architecture.md")).read(), re.M)
if documented != order:
    problems.append(f"docs/architecture.md lists the components {documented}; harness/CMakeLists.txt orders {order}")
print("components:", " -> ".join(order))
print(len(edges), "dependency edges, all downward")
if problems:
    print("\n".join(problems))
    sys.exit(1)
PY
echo PASS
