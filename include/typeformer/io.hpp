// typeformer's host-only support: weights files and formatting. Not for microcontrollers (it
// uses files, <string>, fmt and exceptions); the core is <typeformer/typeformer.hpp>.
//
//   io/safetensors.hpp   save, load (all-or-nothing), load_state, save_state, try_ forms
//   io/format.hpp        fmt formatters for dimensions, tensors, parameter names; summary(model)
//   io/export_header.hpp export_header(model, path, name): a C++ header, the weights in flash
#pragma once

#include "typeformer.hpp"

#include "io/checkpoint.hpp"
#include "io/export_header.hpp"
#include "io/format.hpp"
#include "io/safetensors.hpp"
