// Where a gloo rank should listen when its group spans hosts. A host name says nothing about
// which of the host's addresses the other hosts can reach (on the test bed, and on clusters
// with a management and a data network, it resolves to the wrong one or to none), so the
// ranks exchange their IPv4 interface addresses and each picks one of its own on a subnet
// where every other rank has an address too.
#pragma once

#include <mpi.h>

#include <string>

namespace harness::plugins {

// Collective over comm. The chosen dotted address, or "" with the reason in *why.
std::string address_reaching_every_peer(MPI_Comm comm, std::string* why);

}  // namespace harness::plugins
