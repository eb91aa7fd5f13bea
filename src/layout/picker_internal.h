// The two pickers behind PickSortKey (tarn/layout.h), over a profiled sample.
//
// Thread-safety: pure functions of their arguments.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "layout/profiler.h"
#include "tarn/layout.h"

namespace tarn::layout {

// tarn's mode: candidate keys measured by writing the sample sorted by them.
Result<SortKeyChoice> PickMeasured(const ProfiledRows& rows, const PickerOptions& options,
                                   const std::shared_ptr<const WriterProperties>& properties);

// duckrun's published heuristic over the profile.
Result<SortKeyChoice> PickByRules(const ProfiledRows& rows, const PickerOptions& options);

// "a, b, c" for column indices of `profile`; "(as it is)" for none.
std::string KeyText(const TableProfile& profile, const std::vector<int>& columns);

// The key as named columns, ascending, NULLs last.
std::vector<SortKeyColumn> KeyColumns(const TableProfile& profile, const std::vector<int>& columns);

}  // namespace tarn::layout
