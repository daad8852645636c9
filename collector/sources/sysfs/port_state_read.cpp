#include <optional>
#include <string>

#include "collector/sources/sysfs/sysfs_pass.hpp"

namespace rdmadiag::sysfs {

namespace {

// The attributes port_state reads only when the state changed, from one sample to another.
void carry_attributes(const PortStateSample& from, PortStateSample& to) {
    to.lid = from.lid;
    to.sm_lid = from.sm_lid;
    to.lmc = from.lmc;
    to.link_layer = from.link_layer;
    to.rate = from.rate;
    to.cap_mask = from.cap_mask;
}

}  // namespace

// Reads the port's state; state_and_gids sends it once the GIDs are read (a change of state
// has them read whole). The caller decides when the state is read (SysfsSource::sample). The
// physical state is read with it, except while the port stays Active: a logical state past
// Down needs the physical link up, so it is carried then and read again with the other
// attributes. Those (LIDs, rate, capabilities, link layer) change with the states, or with an
// event that says so (LID_CHANGE, SM_CHANGE, CLIENT_REREGISTER: the engine then asks for a
// refresh), so they are read again when either state changed, with the whole tables (`all`)
// and on a refresh, and carried in between.
PortStateSample SysfsSource::Pass::port_state(const PortRef& port, KnownPort& known, bool all) {
    Folder dir(known.dir, "", port.device, port.port);
    PortStateSample s;
    s.port = port;
    HeldSlot* slot = known.slots.data();
    s.state = value(dir, "state", sysfs::parse_port_state, false, slot++);
    const PortStateSample* last = known.read ? &known.last : nullptr;
    const bool stays_active =
        last && !all && s.state == PortState::active && last->state == s.state && last->phys_state;
    if (stays_active) {
        s.phys_state = last->phys_state;
        s.phys_state_text = last->phys_state_text;
    } else if (auto ps = value(dir, "phys_state", sysfs::parse_phys_state, false, slot)) {
        s.phys_state = ps->code;
        s.phys_state_text = std::move(ps->name);
    }
    ++slot;
    if (last && !all && last->state == s.state && last->phys_state == s.phys_state) {
        carry_attributes(*last, s);
    } else {
        // A port coming up is given its P_Keys (and, on InfiniBand, its subnet prefix) by the
        // SM: read its tables whole.
        if (last && last->state != s.state) {
            if (known.table) known.table->suspect = true;
            if (known.gids) known.gids->suspect = true;
            // A link that went down or came up counts link_downed, symbol errors, ...
            known.narrow_fast_until = now_ + src_.narrow_fast_hold();
        }
        s.lid = value(dir, "lid", sysfs::parse_lid, false, slot++);
        s.sm_lid = value(dir, "sm_lid", sysfs::parse_lid, false, slot++);
        s.lmc = value(dir, "lid_mask_count", sysfs::parse_lid_mask_count, false, slot++);
        s.link_layer = value(dir, "link_layer", sysfs::parse_link_layer, false, slot++);
        // The text is kept as the kernel printed it; parsing checks that it is a rate.
        s.rate = value(
            dir, "rate",
            [](std::string_view t) -> Result<std::string> {
                RDMADIAG_TRY(sysfs::parse_rate(t));
                return std::string(*sysfs::value_line(t));
            },
            false, slot++);
        s.cap_mask = value(dir, "cap_mask", sysfs::parse_cap_mask, false, slot++);
        known.read = true;
        PortStateSample& a = known.last;
        a.state = s.state;
        a.phys_state = s.phys_state;
        a.phys_state_text = s.phys_state_text;
        carry_attributes(s, a);
    }
    return s;
}

sources::PortFacts SysfsSource::Pass::state_and_gids(const PortRef& port, KnownPort& known,
                                                     bool read_state, bool read_table, bool whole) {
    std::optional<PortStateSample> s;
    if (read_state) s = port_state(port, known, whole);
    if (read_table || !known.gids) read_gids(port, known, whole);
    const PortStateSample& last = s ? *s : known.last;
    sources::PortFacts facts{last.state, last.link_layer, last.lid};
    if (s) {
        if (known.gids) {
            s->gids = known.gids->gids;
            // GID 0's interface ID is the port GUID on InfiniBand only; RoCE derives it from
            // the MAC address.
            if (s->link_layer == LinkLayer::infiniband) s->port_guid = known.gids->port_guid;
        }
        emit(std::move(*s));
    }
    if (known.gids && known.gids->unsent) {
        // The cache view goes out, after the state it belongs to, when the table was read
        // whole: a head that reads as it was adds nothing, and the whole tables confirm it
        // every few minutes.
        known.gids->unsent = false;
        emit(GidTableSample{port, GidView::cache, known.gids->view});
    }
    return facts;
}

}  // namespace rdmadiag::sysfs
