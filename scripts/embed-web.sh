#!/usr/bin/env bash
# Embeds the web page's files (Sources/WaymarkAPI/Web) in the binary: writes them as Swift string
# literals to Sources/WaymarkAPI/Server/WebAssets.swift, which is committed, so a copied
# `waymark` serves the page with nothing beside it and nobody building Waymark needs this step.
# Run it after editing a file in Web/; WebAssetsTests fails until you do.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -q WaymarkEmbed Sources/WaymarkAPI/Server/WebAssets.swift Sources/WaymarkAPI/Web/*
echo "embed-web: wrote Sources/WaymarkAPI/Server/WebAssets.swift from $(ls Sources/WaymarkAPI/Web | wc -l) files"
