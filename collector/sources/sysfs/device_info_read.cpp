#include <optional>
#include <string>

#include "collector/sources/sysfs/sysfs_pass.hpp"

namespace rdmadiag::sysfs {

namespace {

Transport transport_of(const std::optional<std::string>& node_type, std::optional<LinkLayer> link) {
    if (node_type == "RNIC") return Transport::iwarp;
    if (!link) return Transport::unknown;
    if (*link == LinkLayer::infiniband) return Transport::ib;
    if (*link == LinkLayer::ethernet) return Transport::roce;
    return Transport::unknown;
}

// CAs, switches and routers have InfiniBand management, so a PMA; iWARP RNICs and usNICs
// never do. Unknown types are taken to have one, so their failures stay errors.
bool has_ib_management(const sysfs::NodeType& t) {
    return t.code <= 3;
}

Result<std::optional<std::string>> parse_firmware(std::string_view text) {
    if (text.empty() || text == "\n") return std::optional<std::string>{};
    auto v = RDMADIAG_TRY(sysfs::parse_text_attribute(text));
    return std::optional<std::string>(std::move(v));
}

}  // namespace

void SysfsSource::Pass::device_info(const std::string& dev, std::optional<uint32_t> first_port) {
    const std::string dev_dir = device_dir(dev);
    Folder dir(dev_dir, "", dev);
    DeviceInfo info;
    info.device = dev;
    if (auto t = value(dir, "node_type", sysfs::parse_node_type)) {
        info.node_type = t->name;
        if (has_ib_management(*t)) {
            src_.without_pma_.erase(dev);
        } else {
            src_.without_pma_.insert(dev);
        }
    }
    info.node_guid = value(dir, "node_guid", sysfs::parse_guid);
    info.sys_image_guid = value(dir, "sys_image_guid", sysfs::parse_guid);
    info.node_desc = value(dir, "node_desc", sysfs::parse_node_desc);
    // fw_ver, board_id and hca_type come from the driver: soft devices lack some of them,
    // and fw_ver prints an empty line when the driver has no firmware to name.
    info.fw_ver = value(dir, "fw_ver", parse_firmware, true).value_or(std::nullopt);
    info.board_id = value(dir, "board_id", sysfs::parse_text_attribute, true);
    info.hca_type = value(dir, "hca_type", sysfs::parse_text_attribute, true);
    // The transport needs the link layer; a failure to read it is reported with the port.
    std::optional<LinkLayer> link;
    if (first_port) {
        char buf[sysfs::kReadBufferSize];
        auto n = src_.reader_->read_file(
            dev_dir + "/ports/" + std::to_string(*first_port) + "/link_layer", buf, sizeof buf);
        if (n) {
            auto l = sysfs::parse_link_layer(std::string_view(buf, *n));
            if (l) link = *l;
        }
    }
    info.transport = transport_of(info.node_type, link);
    emit(std::move(info));
}

}  // namespace rdmadiag::sysfs
