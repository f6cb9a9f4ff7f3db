// What a communicator plugin is given to join its trial's group. Under the harness a plugin gets
// MPI's communicator and the group's bootstrap, and a plugin that can use MPI does (ring's links
// are then MPI point-to-point). Inside PyTorch (the harness process group) there is no MPI: the
// plugin joins through the bootstrap alone (ring's links are TCP connections). A replay of a
// PyTorch job joins its plugin as PyTorch would, so that it pays what the job pays.
#pragma once

#include "spec/enum_choice.h"

namespace harness {

enum class PluginJoin { kMpi, kBootstrap };

inline constexpr EnumChoice<PluginJoin> kPluginJoinChoices[2] = {{"mpi", PluginJoin::kMpi},
                                                                 {"bootstrap", PluginJoin::kBootstrap}};

}  // namespace harness
