// n8n loads the node and credential from the "n8n" section of package.json, not from here. This
// file gives local tools (benchmarks, scripts) the compiled classes after `npm run build`; it is
// not part of the published package.
module.exports = {
	EquipmentRental: require('./dist/nodes/EquipmentRental/EquipmentRental.node').EquipmentRental,
	EquipmentRentalApi: require('./dist/credentials/EquipmentRentalApi.credentials')
		.EquipmentRentalApi,
};
