#include "cli/render/gid_change_follower.hpp"

#include "cli/render/gid_diff_render.hpp"
#include "cli/render/pkeys_render.hpp"
#include "collector/json/gid_json.hpp"

namespace rdmadiag::cli::render {

std::string GidChangeFollower::seen(const Observation& obs) {
    const auto* sample = std::get_if<GidTableSample>(&obs.body);
    if (sample == nullptr || !port_matches(filter_, sample->port)) return {};
    if (!gate_.changed(sample->port, sample->view, sample->table)) return {};
    // The engine rebuilds only the devices whose state moved since its last snapshot.
    const auto snap = engine_.snapshot_on_change(Duration::max());
    const PortSnapshot* port = snap->find_port(sample->port);
    const GidDiff* d = port != nullptr ? port->gids->last_change(sample->view) : nullptr;
    uint64_t& printed = printed_generation_[{sample->port, sample->view}];
    if (d == nullptr || d->new_generation <= printed) return {};
    printed = d->new_generation;
    return json_ ? gid_diff_json_with_consumers(*d, *snap).dump() + "\n"
                 : render_gid_diff(*d, snap.get());
}

}  // namespace rdmadiag::cli::render
