// rdmadiag: the command-line front end. Subcommands live in cli/commands/, one per file.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/commands/commands.hpp"
#ifdef RDMADIAG_HAVE_SERVE
#include "cli/commands/serve.hpp"
#endif
#include "collector/builtin/builtin_sources.hpp"

int main(int argc, char** argv) {
    using namespace rdmadiag::cli;
    CLI::App app{
        "rdmadiag: P_Key cache coherence and MR health for RDMA fabrics (InfiniBand, RoCE, "
        "iWARP)",
        "rdmadiag"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "rdmadiag " RDMADIAG_VERSION);
    CliContext ctx;
    rdmadiag::builtin::register_builtin_sources(ctx.registry);
    commands::ExitCode exit;
    commands::register_commands(app, ctx, exit);
#ifdef RDMADIAG_HAVE_SERVE
    commands::register_serve_command(app, ctx, exit);
#endif
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rdmadiag: %s\n", e.what());
        return 3;
    }
    return exit.value;
}
