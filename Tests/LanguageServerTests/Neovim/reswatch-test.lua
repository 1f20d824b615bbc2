-- Driven by NeovimTests.swift: Neovim's built-in LSP client (0.7 and later) runs `reswatch lsp`
-- on a copy of Examples/SampleApp, and this script writes what the editor received to RW_OUT.
local common = dofile(vim.env.RW_COMMON)
local log, findings = common.log, common.findings

local broken = vim.env.RW_BROKEN
local expected = tonumber(vim.env.RW_EXPECTED)
-- Files are published one by one: wait for all of them, not only the broken icon's.
local received = vim.wait(20000, function() return #findings(broken) > 0 and #vim.diagnostic.get() >= expected end, 50)
log("received " .. tostring(received))
for _, d in ipairs(findings(broken)) do
  local lsp = (d.user_data or {}).lsp or {}
  log("diagnostic " .. tostring(d.code or lsp.code) .. " severity=" .. d.severity .. " source=" .. tostring(d.source))
end
log("total " .. #vim.diagnostic.get())
log("ready")

local cleared = vim.wait(30000, function() return #findings(broken) == 0 end, 50)
log("cleared " .. tostring(cleared))
log("total " .. #vim.diagnostic.get())
common.finish()
