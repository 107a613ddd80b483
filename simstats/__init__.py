"""simstats: when can comparisons of ML/NLP systems be trusted? Simulation with known truth."""
from .scenario import Scenario, ScenarioError, parse_scenario, parse_scenarios

__all__ = ["Scenario", "ScenarioError", "parse_scenario", "parse_scenarios"]
__version__ = "0.1.0"
