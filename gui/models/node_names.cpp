#include "gui/models/node_names.hpp"

#include "collector/model/pkey.hpp"
#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

QString NodeNames::node(std::string_view device) const {
    const auto* name = names_.find(device);
    return name ? qs(*name) : qs(device);
}

QString NodeNames::port(std::string_view device, std::optional<uint32_t> port) const {
    if (!port) return node(device);
    const auto* name = names_.find(device);
    // A local device's port reads as the commands write it: mlx5_0:1.
    if (!name) return QStringLiteral("%1:%2").arg(qs(device)).arg(*port);
    return QStringLiteral("%1 port %2").arg(qs(*name)).arg(*port);
}

QString NodeNames::subject(const FindingSubject& s) const {
    // A finding about a partition names no device: "pkey 0x0011" alone.
    QStringList parts;
    if (!s.device.empty()) parts << port(s.device, s.port);
    if (s.index) parts << QStringLiteral("index %1").arg(*s.index);
    if (s.pkey) parts << QStringLiteral("pkey ") + qs(format_pkey(*s.pkey));
    if (s.mr) parts << QStringLiteral("mr %1").arg(*s.mr);
    return parts.join(QLatin1Char(' '));
}

QString NodeNames::with_key(std::string_view device) const {
    const auto* name = names_.find(device);
    const QString key = qs(device);
    return name && *name != device ? QStringLiteral("%1 (%2)").arg(qs(*name), key) : key;
}

}  // namespace rdmadiag::gui::models
