// The translation unit that builds the shared precompiled LibTorch header
// (cmake/HarnessTorch.cmake); it has no code of its own.
