// Partitions on the ibsim + opensm bed (tests/beds/ibsim/with-bed): the partition model the engine
// builds from a subnet sweep and the SM's own partitions.conf, against what opensm did with that
// file. Run through CTest, which starts a bed for this test alone (it edits partitions.conf and
// sets a port's P_Key table behind the SM's back); run directly without one, every test skips.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "collector/engine/default/default_engine.hpp"
#include "collector/engine/partitions/partition_findings.hpp"
#include "collector/model/partition_model.hpp"
#include "collector/sources/mad/mad_bytes.hpp"
#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/mad_observations.hpp"
#include "collector/sources/mad/mad_options.hpp"
#include "collector/sources/mad/mad_source.hpp"
#include "collector/sources/mad/smp_attributes.hpp"
#include "collector/sources/mad/umad_transport.hpp"
#include "tests/collector/sources/mad/ibsim_bed.hpp"
#include "tests/support/source_options.hpp"

namespace rdmadiag::mad {
namespace {

using namespace ibsim_bed;
using std::chrono::seconds;

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// ibsim's GUIDs: HcaN's node GUID is 0x100000 + 3*(N-1), its port P's GUID that plus P.
uint64_t hca_port_guid(int n, uint32_t port) {
    return 0x100000 + 3 * (n - 1) + port;
}
PortRef hca(int n, uint32_t port) {
    return PortRef{guid_device_name(0x100000 + 3 * (n - 1)), port};
}

// One subnet sweep with the SM_Key, as `rdmadiag serve --source.mad` makes it.
std::vector<Observation> sweep(TimePoint now) {
    sources::SourceSettings settings;
    settings.extra = {{"mad.scope", "subnet"}, {"mad.sm_key", "0x1"}};
    auto source = make_mad_source(::rdmadiag::test::resolved(settings, "mad", mad_options()));
    EXPECT_TRUE(source.ok());
    sources::VectorSink sink;
    if (source.ok()) (*source)->poll(now, sink);
    return std::move(sink.observations);
}

// An engine that judges the subnet against the bed's partitions.conf, as opensm reads it.
class Judged {
public:
    // Feeds the file as it is now and a sweep made now; the snapshot after them.
    std::shared_ptr<const Snapshot> after_sweep() {
        now_ += seconds(10);
        const std::string path = std::string(bed_dir()) + "/partitions.conf";
        engine_->consume(
            Observation{now_, "partitions", PartitionsConfText{path, read_text(path)}});
        for (const auto& o : sweep(now_)) engine_->consume(o);
        engine_->advance(now_);
        return engine_->snapshot();
    }

private:
    std::unique_ptr<engine::Engine> engine_ = engine::make_default_engine();
    TimePoint now_ = TimePoint{} + seconds(1000);
};

// The findings about who holds which key (partition.enforcement_off is about switch ports, and
// ibsim's switches never enforce: SwitchPortsFacingLimitedMembers... below).
std::vector<const Finding*> partition_findings(const Snapshot& snap) {
    std::vector<const Finding*> out;
    for (const Finding& f : snap.findings) {
        if (f.rule.starts_with("partition.") && f.rule != partitions::kRuleEnforcementOff)
            out.push_back(&f);
    }
    return out;
}

std::string describe(const std::vector<const Finding*>& findings) {
    std::string s;
    for (const Finding* f : findings) s += "\n  " + f->rule + ": " + f->evidence;
    return s;
}

const PartitionMember* member(const PartitionModel& m, const Partition& p, uint64_t guid) {
    for (const PartitionMember& x : p.members) {
        if (m.ports[x.port].guid == guid) return &x;
    }
    return nullptr;
}

// Every partition the file defines has, in the sma view (what the ports answer) and in the sm
// view (the SA's PKeyTableRecords), exactly the members and memberships the file gives.
void expect_model_equals_intent(const PartitionModel& model) {
    ASSERT_TRUE(model.intent.has_value());
    EXPECT_TRUE(model.unresolved.empty()) << model.unresolved.front();
    size_t judged = 0;
    for (const Partition& p : model.partitions) {
        if (!p.intended) continue;
        ++judged;
        for (const PartitionMember& m : p.members) {
            const EndPort& port = model.ports[m.port];
            EXPECT_EQ(difference(model, p, m), MemberDifference::none)
                << format_pkey(p.pkey) << " " << port.port.to_string();
            EXPECT_EQ(m.in(MemberView::sma), m.in(MemberView::intent))
                << format_pkey(p.pkey) << " " << port.port.to_string();
            if (port.has(MemberView::sm)) {
                EXPECT_EQ(m.in(MemberView::sm), m.in(MemberView::intent))
                    << format_pkey(p.pkey) << " " << port.port.to_string();
            }
        }
    }
    EXPECT_GT(judged, 0u);
}

class PartitionsIbsim : public ::testing::Test {
protected:
    void SetUp() override {
        if (bed_dir() == nullptr)
            GTEST_SKIP() << "no ibsim bed (run through ctest: tests/beds/ibsim/with-bed)";
        // Each test starts from the bed's own file, as opensm has applied it.
        bed_ctl("partitions " + fixture("partitions.conf"));
    }
};

TEST_F(PartitionsIbsim, TheModelEqualsPartitionsConfAfterTheSmsSweep) {
    Judged judged;
    auto snap = judged.after_sweep();
    ASSERT_NE(snap->partitions, nullptr);
    const PartitionModel& model = *snap->partitions;
    expect_model_equals_intent(model);
    EXPECT_TRUE(partition_findings(*snap).empty()) << describe(partition_findings(*snap));

    // Compute (0x0002) is the file's own list: two full members and one limited.
    const Partition* compute = model.find(0x0002);
    ASSERT_NE(compute, nullptr);
    EXPECT_EQ(compute->name, "Compute");
    std::set<std::pair<uint64_t, uint8_t>> held;
    for (const PartitionMember& m : compute->members) {
        if (m.in(MemberView::sma) != 0)
            held.emplace(*model.ports[m.port].guid, m.in(MemberView::sma));
    }
    EXPECT_EQ(held, (std::set<std::pair<uint64_t, uint8_t>>{{hca_port_guid(1, 1), kHoldsFull},
                                                            {hca_port_guid(2, 1), kHoldsFull},
                                                            {hca_port_guid(3, 1), kHoldsLimited}}));
    // Storage (0x0001) is ALL_CAS: every HCA port of the bed, both ports of eight HCAs.
    const Partition* storage = model.find(0x0001);
    ASSERT_NE(storage, nullptr);
    EXPECT_EQ(storage->counts[static_cast<size_t>(MemberView::sma)][1], 16u);
}

TEST_F(PartitionsIbsim, AnEditAndAResweepMoveMembersAsTheSmDoes) {
    Judged judged;
    judged.after_sweep();
    bed_ctl("partitions " + fixture("partitions.changed.conf"));
    auto snap = judged.after_sweep();
    ASSERT_NE(snap->partitions, nullptr);
    const PartitionModel& model = *snap->partitions;
    expect_model_equals_intent(model);
    EXPECT_TRUE(partition_findings(*snap).empty()) << describe(partition_findings(*snap));
    // Compute is gone from every port; Archive (0x0004) is on Hca2 port 1 alone.
    if (const Partition* compute = model.find(0x0002)) {
        EXPECT_EQ(compute->counts[static_cast<size_t>(MemberView::sma)],
                  (std::array<uint32_t, 3>{}));
    }
    const Partition* archive = model.find(0x0004);
    ASSERT_NE(archive, nullptr);
    EXPECT_TRUE(archive->intended);
    const PartitionMember* h2 = member(model, *archive, hca_port_guid(2, 1));
    ASSERT_NE(h2, nullptr);
    EXPECT_EQ(h2->in(MemberView::sma), kHoldsFull);
    EXPECT_EQ(archive->counts[static_cast<size_t>(MemberView::sma)][1], 1u);
}

// Sets block 0 of a CA port's P_Key table with a LID-routed SubnSet, as a tool (or a second SM)
// would behind the master SM's back. The answer's status must be 0.
void set_pkey_block(uint16_t lid, const std::vector<uint16_t>& keys) {
    auto port = UmadTransport::open("", 0);
    ASSERT_TRUE(port.ok()) << port.error().message;
    SmpRequest req{
        .method = Method::set, .attr_id = attr::pkey_table, .attr_mod = pkey_table_modifier(0, 0)};
    auto mad = build_lid_smp(req, 0x5e7);
    for (size_t i = 0; i < keys.size() && i < 32; ++i) {
        put16(MutableBytes(mad), kSmpDataOffset + 2 * i, keys[i]);
    }
    ASSERT_TRUE((*port)->send(Agent::smi_lid, Bytes(mad), MadAddress{.dlid = lid}, 1000).ok());
    for (int tries = 0; tries < 20; ++tries) {
        auto got = (*port)->receive(std::chrono::milliseconds(200));
        ASSERT_TRUE(got.ok()) << got.error().message;
        if (!*got) continue;
        ASSERT_EQ((*got)->status, 0) << "the set was not answered";
        auto header = check_response(Bytes((*got)->mad));
        ASSERT_TRUE(header.ok()) << header.error().message;
        EXPECT_EQ(header->attr_id, attr::pkey_table);
        return;
    }
    FAIL() << "no answer to the P_KeyTable Set";
}

TEST_F(PartitionsIbsim, ATableSetBehindTheSmsBackIsFlaggedWhileItLasts) {
    Judged judged;
    auto before = judged.after_sweep();
    ASSERT_NE(before->partitions, nullptr);
    // Hca4 port 1 holds Default, Storage and Backup; give it Compute (full) and take Storage away.
    const PortSnapshot* h4 = before->find_port(hca(4, 1));
    ASSERT_NE(h4, nullptr);
    ASSERT_TRUE(h4->info.lid.has_value());
    const PKeyViewState* sma = h4->pkeys.find(PKeyView::sma);
    ASSERT_NE(sma, nullptr);
    const std::vector<uint16_t> original(
        sma->table.keys.begin(),
        sma->table.keys.begin() + std::min<size_t>(32, sma->table.keys.size()));
    std::vector<uint16_t> keys = original;
    bool storage_removed = false, compute_added = false;
    for (auto& k : keys) {
        if ((k & 0x7fff) == 0x0001 && !storage_removed) {
            k = 0;
            storage_removed = true;
        }
    }
    for (auto& k : keys) {
        if ((k & 0x7fff) == 0 && !compute_added) {
            k = 0x8002;
            compute_added = true;
        }
    }
    ASSERT_TRUE(storage_removed && compute_added);
    set_pkey_block(static_cast<uint16_t>(*h4->info.lid), keys);

    auto snap = judged.after_sweep();
    const auto found = partition_findings(*snap);
    auto raised = [&](std::string_view rule, uint16_t pkey) -> const Finding* {
        for (const Finding* f : found) {
            if (f->rule == rule && f->subject.pkey == pkey) return f;
        }
        return nullptr;
    };
    const Finding* unexpected = raised(partitions::kRuleUnexpectedMember, 0x0002);
    ASSERT_NE(unexpected, nullptr) << describe(found);
    EXPECT_NE(unexpected->evidence.find("0x000000000010000a"), std::string::npos)
        << unexpected->evidence;
    const Finding* missing = raised(partitions::kRuleMemberMissing, 0x0001);
    ASSERT_NE(missing, nullptr) << describe(found);
    EXPECT_NE(missing->evidence.find("0x000000000010000a"), std::string::npos) << missing->evidence;
    EXPECT_EQ(found.size(), 2u) << describe(found);

    // opensm does not notice: a heavy sweep sends a port the keys it computed only where they
    // differ from what it last set there, and it never read this change back.
    bed_ctl("sighup");
    EXPECT_EQ(partition_findings(*judged.after_sweep()).size(), 2u);

    // Put back what the SM had set: nothing is left to flag.
    set_pkey_block(static_cast<uint16_t>(*h4->info.lid), original);
    auto repaired = judged.after_sweep();
    EXPECT_TRUE(partition_findings(*repaired).empty()) << describe(partition_findings(*repaired));
}

// smpquery portinfo's PartEnforceInb/PartEnforceOutb for a switch port.
std::pair<bool, bool> smpquery_enforcement(uint16_t lid, uint32_t port) {
    const std::string out =
        run("smpquery portinfo " + std::to_string(lid) + " " + std::to_string(port));
    auto bit = [&out](const std::string& field) {
        auto at = out.find(field + ":");
        EXPECT_NE(at, std::string::npos) << field << " not in smpquery's answer";
        if (at == std::string::npos) return false;
        auto value = out.find_first_not_of('.', out.find(':', at) + 1);
        return value != std::string::npos && out[value] == '1';
    };
    return {bit("PartEnforceInb"), bit("PartEnforceOutb")};
}

TEST_F(PartitionsIbsim, SwitchPortsFacingLimitedMembersAreJudgedByTheirEnforcementBits) {
    Judged judged;
    auto snap = judged.after_sweep();
    // Hca3 port 1 is Compute's limited member. The enforcement bits of the switch port on its link
    // are what the switch answers (smpquery reads the same). ibsim's switches report
    // PartEnforceCap 64 yet answer both bits 0 whatever opensm's part_enforce says, so on this
    // bed the port does not enforce, and partition.enforcement_off must name the member.
    size_t facing = 0;
    for (const DeviceSnapshot& d : snap->devices) {
        if (d.info.node_type != "switch") continue;
        for (const PortSnapshot& p : d.ports) {
            if (p.info.peer_node_guid != 0x100000 + 3 * 2 || p.info.peer_port != 1u) continue;
            ++facing;
            ASSERT_TRUE(d.info.lid.has_value());
            const auto [inbound, outbound] =
                smpquery_enforcement(static_cast<uint16_t>(*d.info.lid), p.ref.port);
            EXPECT_EQ(p.info.partition_enforcement_inbound, inbound) << p.ref.to_string();
            EXPECT_EQ(p.info.partition_enforcement_outbound, outbound) << p.ref.to_string();
            bool off_raised = false;
            for (const Finding& f : snap->findings) {
                if (f.rule == partitions::kRuleEnforcementOff && f.subject.pkey == 0x0002) {
                    off_raised = true;
                    EXPECT_NE(f.evidence.find("0x0000000000100007"), std::string::npos)
                        << f.evidence;
                }
            }
            EXPECT_EQ(off_raised, !(inbound && outbound));
        }
    }
    EXPECT_EQ(facing, 1u);
}

}  // namespace
}  // namespace rdmadiag::mad
