#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands/command_output.hpp"
#include "cli/commands/commands.hpp"
#include "cli/render/partitions_render.hpp"
#include "collector/common/text_file.hpp"
#include "collector/engine/partitions/partition_model.hpp"
#include "collector/json/partitions_json.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"

namespace rdmadiag::cli::commands {

namespace {

// A daemon's snapshot does not carry its partition model (/api/v1/partitions does): with --remote
// the model is built here from the daemon's P_Key views, against an intent read here.
Result<PartitionModel> remote_model(const Snapshot& snapshot, const std::string& intent_path,
                                    const sources::SourceSettings& settings) {
    partitions::ModelOptions options;
    options.sm_port_guid = settings.options.get<uint64_t>(partitions_conf::kSmPortGuidOption);
    if (intent_path.empty()) return partitions::build_partition_model(snapshot, nullptr, options);
    const auto text =
        RDMADIAG_TRY(common::read_text_file(intent_path, partitions_conf::kMaxConfBytes));
    const auto intent = rdmadiag::parse_partitions_conf(text);
    auto model = partitions::build_partition_model(snapshot, &intent, options);
    model.intent->path = intent_path;
    model.intent->sm_port_guid = options.sm_port_guid;
    return model;
}

// Here the engine read the intent through the partitions source, which says why it could not.
Result<PartitionModel> local_model(const Snapshot& snapshot) {
    for (const auto& s : snapshot.sources) {
        if (s.name == partitions_conf::kSourceName && !s.up) return make_error(s.reason);
    }
    if (!snapshot.partitions) return PartitionModel{};
    return *snapshot.partitions;
}

}  // namespace

void register_partitions_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "partitions",
        "P_Keys as partitions: member ports per view, and where they differ from partitions.conf");
    add_common_options(*cmd, ctx);
    auto pkey = std::make_shared<std::string>();
    cmd->add_option("pkey", *pkey,
                    "One partition's member ports (0x8011; the membership bit is "
                    "ignored)");
    cmd->add_option_function<std::string>(
           "--intent",
           [&ctx](const std::string& v) {
               ctx.flags.add(
                   source_option_edit(ctx.registry, "--intent", partitions_conf::kConfOption, v));
           },
           "The SM's partitions.conf (opensm's grammar), to compare the ports with (the same as "
           "--partitions.conf)")
        ->type_name("FILE");
    cmd->add_option_function<std::string>(
           "--sm-port-guid",
           [&ctx](const std::string& v) {
               ctx.flags.add(source_option_edit(ctx.registry, "--sm-port-guid",
                                                partitions_conf::kSmPortGuidOption, v));
           },
           "The SM's port GUID, for SELF in partitions.conf (the same as "
           "--partitions.sm-port-guid)")
        ->type_name("GUID");
    cmd->callback([&ctx, &exit, pkey] {
        render::PartitionsRenderOptions opt;
        if (!pkey->empty()) {
            auto v = parse_pkey(*pkey);
            if (!v) {
                exit.value = report_error(v.error());
                return;
            }
            opt.pkey = *v;
        }
        const auto got = collect_once(ctx);
        if (collected_or_report(got, exit) == nullptr) return;
        auto settings = ctx.settings().sources;
        if (auto r = sources::resolve_source_options(ctx.registry, settings); !r) {
            exit.value = report_error(r.error());
            return;
        }
        const std::string conf_path =
            settings.options.text(partitions_conf::kConfOption).value_or("");
        auto model = ctx.remote.empty() ? local_model(*got->snapshot)
                                        : remote_model(*got->snapshot, conf_path, settings);
        if (!model) {
            exit.value = report_error(model.error());
            return;
        }
        if (model->intent) {
            for (const auto& issue : model->intent->issues) {
                std::fprintf(stderr, "%s:%u: %s\n", model->intent->path.c_str(), issue.line,
                             issue.message.c_str());
            }
        }
        print_view(
            ctx, [&] { return codec::partitions_to_json(*model, opt.pkey); },
            [&] { return render::render_partitions_text(*model, opt); });
        if (opt.pkey && !model->find(pkey_base(*opt.pkey))) exit.value = 1;
    });
}

}  // namespace rdmadiag::cli::commands
