#include "cli/commands/command_output.hpp"

namespace rdmadiag::cli::commands {

void print_json(const codec::Json& j) {
    std::printf("%s\n", j.dump(2).c_str());
}

const Collected* collected_or_report(const Result<Collected>& got, ExitCode& exit) {
    if (!got) {
        exit.value = report_error(got.error());
        return nullptr;
    }
    print_notes(*got);
    return &*got;
}

bool read_port_filter(const std::string& text, PortRef& filter, ExitCode& exit) {
    if (text.empty()) return true;
    auto ref = parse_port_ref(text);
    if (!ref) {
        exit.value = report_error(ref.error());
        return false;
    }
    filter = *ref;
    return true;
}

}  // namespace rdmadiag::cli::commands
