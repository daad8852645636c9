#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands/commands.hpp"
#include "cli/render/partitions_render.hpp"
#include "collector/common/text_file.hpp"
#include "collector/engine/partitions/partition_model.hpp"

namespace rdmadiag::cli::commands {

void register_partitions_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "partitions",
        "P_Keys as partitions: member ports per view, and where they differ from partitions.conf");
    add_common_options(*cmd, ctx);
    auto pkey = std::make_shared<std::string>();
    auto intent_path = std::make_shared<std::string>();
    auto sm_guid = std::make_shared<std::string>();
    cmd->add_option("pkey", *pkey,
                    "One partition's member ports (0x8011; the membership bit is "
                    "ignored)");
    cmd->add_option("--intent", *intent_path,
                    "The SM's partitions.conf (opensm's grammar), to compare the ports with");
    cmd->add_option("--sm-port-guid", *sm_guid, "The SM's port GUID, for SELF in partitions.conf");
    cmd->callback([&ctx, &exit, pkey, intent_path, sm_guid] {
        render::PartitionsRenderOptions opt;
        if (!pkey->empty()) {
            auto v = parse_pkey(*pkey);
            if (!v) {
                exit.value = report_error(v.error());
                return;
            }
            opt.pkey = *v;
        }
        partitions::ModelOptions model_options;
        if (!sm_guid->empty()) {
            // Written as partitions.conf writes GUIDs.
            auto v = partitions::parse_conf_number(*sm_guid);
            if (!v || *v == 0) {
                exit.value = report_error(make_error("not a GUID: '" + *sm_guid + "'", EINVAL));
                return;
            }
            model_options.sm_port_guid = *v;
        }
        std::optional<partitions::PartitionsConf> intent;
        if (!intent_path->empty()) {
            auto text = common::read_text_file(*intent_path, 64 << 20);
            if (!text) {
                exit.value = report_error(text.error());
                return;
            }
            intent = partitions::parse_partitions_conf(*text);
            for (const auto& issue : intent->issues) {
                std::fprintf(stderr, "%s:%u: %s\n", intent_path->c_str(), issue.line,
                             issue.message.c_str());
            }
        }
        auto got = collect_once(ctx);
        if (!got) {
            exit.value = report_error(got.error());
            return;
        }
        print_notes(*got);
        const auto model = partitions::build_partition_model(
            *got->snapshot, intent ? &*intent : nullptr, model_options);
        if (ctx.json) {
            print_json(render::render_partitions_json(model, intent.has_value(), opt));
        } else {
            std::fputs(render::render_partitions_text(model, intent.has_value(), opt).c_str(),
                       stdout);
        }
        if (opt.pkey && !model.find(pkey_base(*opt.pkey))) exit.value = 1;
    });
}

}  // namespace rdmadiag::cli::commands
