// pvm/pvm.hpp: the whole C++ wrapper around libpvm3 in one include.
#pragma once

#include "pvm/buffer.hpp"
#include "pvm/error.hpp"
#include "pvm/private_vm.hpp"
#include "pvm/session.hpp"
#include "pvm/types.hpp"
