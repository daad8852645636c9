#pragma once
// ibv_event_type values, written out so the verbs tests do not depend on <infiniband/verbs.h>.

namespace rdmadiag::verbs::test_codes {

constexpr int kCqErr = 0, kQpFatal = 1, kDeviceFatal = 8, kPortActive = 9, kPortErr = 10,
              kLidChange = 11, kPkeyChange = 12, kSrqErr = 14, kClientReregister = 17,
              kGidChange = 18, kWqFatal = 19;

}  // namespace rdmadiag::verbs::test_codes
