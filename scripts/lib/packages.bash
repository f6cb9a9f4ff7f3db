# The Debian packages each set-up option brings, declared once: scripts/setup installs them, and
# CI (.ci/run, through tests/e2e/hidden_packages.bash) reads them to hide from each README
# command the packages it does not install.
# Sourced, not run.

# setup_packages [--plots] [--peer] [--fuzz] [--slurm]: prints the packages, one a line;
# returns 2 on an unknown option.
setup_packages() {
  # libopenblas0-openmp: Debian's LibTorch calls whichever BLAS provides libblas.so.3; without
  # an optimised one that is the reference implementation (a 1024 x 1024 product on one core:
  # 7 GFLOP/s against OpenBLAS's 98, measured on a 2-core VM). The OpenMP build shares
  # LibTorch's OpenMP runtime, so a trial's `threads` bounds it too.
  local packages=(cmake ninja-build ccache g++ make python3 pkg-config
                  libtorch-dev libopenblas0-openmp libopenmpi-dev openmpi-bin libgloo-dev
                  nlohmann-json3-dev libboost-dev libcli11-dev libgtest-dev googletest
                  libbenchmark-dev libbenchmark-tools python3-scipy libfann-doc iproute2 util-linux)
  local flag
  for flag in "$@"; do
    case "$flag" in
      --plots) packages+=(python3-matplotlib python3-pandas python3-pytest) ;;
      --peer) packages+=(python3-torch python3-dev python3-venv) ;;
      --fuzz) packages+=(clang libclang-rt-14-dev) ;;
      --slurm) packages+=(slurmctld slurmd slurm-client munge) ;;
      *) echo "scripts/setup: unknown option $flag (expected --plots, --peer, --fuzz, --slurm or --no-install)" >&2
         return 2 ;;
    esac
  done
  printf '%s\n' "${packages[@]}"
}
