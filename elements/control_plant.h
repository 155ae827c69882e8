// Control_PlantInput and Control_PlantOutput: a mechanical system's inputs and outputs, each a list of
// Reference_Variables, which PINVAL(id, i) and POUVAL(id, i) read. MotionSolve uses them for linearisation and
// co-simulation as well; Lodestone does neither, so a port is what its expressions read: PINVAL(id, i) is the value
// of the i-th variable it lists, with every check a VARVAL of that variable has (cycles, what a motion or a force
// may read). The deck elements, their checks, and the model's ports.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct ControlPlantSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<int> num_element;
  std::vector<long> variable_id_list;
};

const ElementSchema<ControlPlantSpec>& controlPlantInputSchema();
const ElementSchema<ControlPlantSpec>& controlPlantOutputSchema();
// num_element is given and the list holds that many variables.
void checkControlPlant(const ControlPlantSpec& spec, Diagnostics& diagnostics);

struct PlantPort {
  long id = 0;
  SourceLoc loc;
  std::vector<long> variableIds;
};

struct PlantModel {
  std::map<long, PlantPort> inputs, outputs;

  // The Control_PlantInput (Output) `id`, or null.
  const PlantPort* port(PlantRead::Port kind, long id) const;
};

// Never null; the specs were checked when read.
std::shared_ptr<const PlantModel> buildPlantModel(const std::vector<ControlPlantSpec>& inputs,
                                                  const std::vector<ControlPlantSpec>& outputs);

// Binds each PINVAL and POUVAL of the expression to the variable its port lists; a port the model lacks, or a
// variable number beyond its list, is an error at its column (`attribute="text", column N: …`). False after one.
bool bindPlantReads(Expression& expression, const std::string& attribute, const SourceLoc& loc,
                    const PlantModel* plants, Diagnostics& diagnostics);

}  // namespace lodestone
